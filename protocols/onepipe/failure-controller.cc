#include "protocols/onepipe/failure-controller.h"

#include "protocols/onepipe/failure-detector.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/sim-time.h"
#include "sim/topology/topology.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <deque>
#include <string>

namespace incsim::onepipe
{

FailureController::FailureController(const Topology& topology, const ControllerConfig& config,
                                     std::vector<OnePipeEndpoint*> processes, CsvWriter* trace)
    : m_topology(topology),
      m_config(config),
      m_processes(std::move(processes)),
      m_inputs(topology.NumNodes(), nullptr),
      m_trace(trace),
      m_linkDown(topology.NumLinks(), false),
      m_failed(m_processes.size(), false),
      m_awaiting(m_processes.size(), false)
{
}

void
FailureController::AddSwitch(uint32_t node, CommitInputs& inputs)
{
    m_inputs[node] = &inputs;
}

int64_t
FailureController::Serve()
{
    ++m_messages;
    m_busyUntilPs = std::max(m_busyUntilPs, NowPs()) + m_config.costPs;
    return m_busyUntilPs - NowPs();
}

void
FailureController::SendReport(uint32_t node, uint32_t port, uint64_t commit)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, node, port, commit] {
        ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveReport, this, node, port,
                                 commit);
    });
}

void
FailureController::SendCompletion(uint32_t process, uint64_t epoch)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, process, epoch] {
        ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveCompletion, this,
                                 process, epoch);
    });
}

void
FailureController::Trace(const char* event, uint32_t node, int64_t port, int64_t process,
                         uint64_t ts)
{
    if (m_trace)
    {
        m_trace->Row(NowPs() / kPsPerNs, event,
                     port < 0 ? std::string() : m_topology.Node(node).name, port, process, ts);
    }
}

void
FailureController::ReceiveReport(uint32_t node, uint32_t port, uint64_t commit)
{
    const Topology::PortPeer& peer = m_topology.Peer(node, port);
    m_reports.push_back(Report{node, port, peer.link, peer.peerNode, commit});
    Trace("report", node, port, -1, commit);
    if (!m_determinePending)
    {
        // The other neighbours of the same component time out at the same tick: take their
        // reports together.
        m_determinePending = true;
        ns3::Simulator::Schedule(Ps(m_config.determineWaitPs), &FailureController::Determine,
                                 this);
    }
}

std::vector<uint32_t>
FailureController::Components() const
{
    constexpr uint32_t kUnseen = ~uint32_t{0};
    std::vector<uint32_t> component(m_topology.NumNodes(), kUnseen);
    uint32_t next = 0;
    auto flood = [&](uint32_t start) {
        std::deque<uint32_t> queue{start};
        component[start] = next;
        while (!queue.empty())
        {
            const uint32_t node = queue.front();
            queue.pop_front();
            for (uint32_t port = 0; port < m_topology.NumPorts(node); ++port)
            {
                const Topology::PortPeer& peer = m_topology.Peer(node, port);
                if (!m_linkDown[peer.link] && component[peer.peerNode] == kUnseen)
                {
                    component[peer.peerNode] = next;
                    queue.push_back(peer.peerNode);
                }
            }
        }
        ++next;
    };
    flood(m_config.rootNode);
    for (uint32_t node = 0; node < m_topology.NumNodes(); ++node)
    {
        if (component[node] == kUnseen)
        {
            flood(node);
        }
    }
    return component;
}

void
FailureController::Determine()
{
    m_determinePending = false;
    for (Report& report : m_reports)
    {
        if (!report.applied)
        {
            report.applied = true;
            m_linkDown[report.link] = true;
        }
    }
    // A process is failed once its host is cut off from the controller's. Its failure
    // timestamp is the highest commit barrier that a switch still connected to the controller
    // reported from its component: the cut between it and every correct receiver.
    const std::vector<uint32_t> component = Components();
    std::vector<uint64_t> failureTs(m_topology.NumNodes(), 0);
    for (const Report& report : m_reports)
    {
        if (component[report.node] == 0 && component[report.peer] != 0)
        {
            uint64_t& ts = failureTs[component[report.peer]];
            ts = std::max(ts, report.commit);
        }
    }
    std::vector<ProcessFailure> failures;
    for (uint32_t process = 0; process < m_processes.size(); ++process)
    {
        const uint32_t host = m_topology.Hosts()[process / m_config.processesPerHost];
        if (m_failed[process] || component[host] == 0)
        {
            continue;
        }
        m_failed[process] = true;
        ++m_failedCount;
        const uint64_t ts = failureTs[component[host]];
        failures.push_back(ProcessFailure{process, ts});
        Trace("failed", host, -1, process, ts);
    }
    if (!failures.empty())
    {
        // Broadcast a new epoch; every correct process must complete it (a process that
        // failed since the last epoch is no longer waited for).
        ++m_epoch;
        Trace("broadcast", 0, -1, -1, m_epoch);
        m_awaitingCount = 0;
        for (uint32_t process = 0; process < m_processes.size(); ++process)
        {
            m_awaiting[process] = !m_failed[process];
            if (!m_awaiting[process])
            {
                continue;
            }
            ++m_awaitingCount;
            OnePipeEndpoint* endpoint = m_processes[process];
            const uint64_t epoch = m_epoch;
            ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                     [endpoint, epoch, failures] {
                                         endpoint->ProcessFailures(epoch, failures);
                                     });
        }
    }
    if (m_awaitingCount == 0)
    {
        Resume();
    }
}

void
FailureController::ReceiveCompletion(uint32_t process, uint64_t epoch)
{
    if (epoch != m_epoch || !m_awaiting[process])
    {
        return; // an older epoch's: the latest one's is still due
    }
    m_awaiting[process] = false;
    if (--m_awaitingCount == 0 && !m_determinePending)
    {
        Resume();
    }
}

void
FailureController::Resume()
{
    for (Report& report : m_reports)
    {
        if (!report.applied || report.resumed)
        {
            continue;
        }
        report.resumed = true;
        ++m_resumes;
        Trace("resume", report.node, report.port, -1, report.commit);
        CommitInputs* inputs = m_inputs[report.node];
        const uint32_t port = report.port;
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                 [inputs, port] { inputs->RemoveCommitInput(port); });
    }
}

} // namespace incsim::onepipe
