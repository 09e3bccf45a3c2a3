#include "protocols/onepipe/failure-controller.h"

#include "protocols/onepipe/failure-detector.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/topology/topology.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <deque>
#include <optional>
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
      m_awaiting(m_processes.size(), false),
      m_failedAtLog(m_processes.size(), 0),
      m_failureTs(m_processes.size(), 0),
      m_recovering(m_processes.size(), false),
      m_unreachableHost(topology.NumNodes(), false),
      m_silenced(m_processes.size(), false)
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
FailureController::SendRepair(uint32_t node, uint32_t port)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, node, port] {
        ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveRepair, this, node,
                                 port);
    });
}

void
FailureController::SendReadmission(uint32_t node, uint32_t port, bool done)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, node, port, done] {
        ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveReadmission, this, node,
                                 port, done);
    });
}

void
FailureController::SendUndeliveredRecalls(uint32_t process, std::vector<UndeliveredRecall> recalls)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, process, recalls] {
        Serve();
        m_recalls.insert(m_recalls.end(), recalls.begin(), recalls.end());
        Trace("recall_kept", 0, -1, process, recalls.size());
    });
}

void
FailureController::SendForward(const ForwardRequest& request)
{
    ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, request] {
        ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveForward, this, request);
    });
}

uint32_t
FailureController::HostNodeOf(uint32_t process) const
{
    return m_topology.Hosts()[process / m_config.processesPerHost];
}

bool
FailureController::Reachable(uint32_t process) const
{
    return m_processes[process]->Host().IsUp();
}

void
FailureController::ReceiveForward(const ForwardRequest& request)
{
    Trace("forward", 0, -1, request.src, request.to - request.from, request.dst);
    if (m_failed[request.dst] || m_failed[request.src])
    {
        return; // announced failed already: Recall (or the sender's own notice) settles it
    }
    if (!Reachable(request.dst))
    {
        Unreachable(request.dst);
        return;
    }
    OnePipeEndpoint* receiver = m_processes[request.dst];
    ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs), [this, receiver, request] {
        const std::optional<uint32_t> next = receiver->ReceiveForwarded(request);
        if (!next)
        {
            return; // the channel is gone, or the receiver failed meanwhile
        }
        // The receiver's ACK, back through the controller.
        const uint32_t ack = *next;
        ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, request, ack] {
            ns3::Simulator::Schedule(Ps(Serve()), [this, request, ack] {
                if (m_failed[request.src])
                {
                    return;
                }
                if (!Reachable(request.src))
                {
                    Unreachable(request.src);
                    return;
                }
                ++m_forwards;
                Trace("forward_ack", 0, -1, request.dst, ack, request.src);
                OnePipeEndpoint* sender = m_processes[request.src];
                ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                         [sender, request, ack] {
                                             sender->ForwardedAck(request, ack);
                                         });
            });
        });
    });
}

void
FailureController::Unreachable(uint32_t process)
{
    const uint32_t host = HostNodeOf(process);
    if (m_unreachableHost[host])
    {
        return; // its registers are being read already
    }
    m_unreachableHost[host] = true;
    Trace("unreachable", 0, -1, process, 0);
    for (uint32_t port = 0; port < m_topology.NumPorts(host); ++port)
    {
        const Topology::PortPeer& peer = m_topology.Peer(host, port);
        CommitInputs* inputs = m_inputs[peer.peerNode];
        if (inputs == nullptr)
        {
            continue;
        }
        // A register read over the management network: there and back.
        const uint32_t node = peer.peerNode;
        const uint32_t switchPort = peer.peerPort;
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs), [this, inputs, node, switchPort] {
            const uint64_t commit = inputs->LastCommit(switchPort);
            ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, node, switchPort, commit] {
                ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveReport, this,
                                         node, switchPort, commit);
            });
        });
    }
}

void
FailureController::Trace(const char* event, uint32_t node, int64_t port, int64_t process,
                         uint64_t ts, int64_t peer)
{
    if (m_trace)
    {
        m_trace->Row(NowPs() / kPsPerNs, event,
                     port < 0 ? std::string() : m_topology.Node(node).name, port, process, ts,
                     peer);
    }
}

void
FailureController::ReceiveReport(uint32_t node, uint32_t port, uint64_t commit)
{
    const bool known = std::any_of(m_reports.begin(), m_reports.end(), [&](const Report& r) {
        return r.node == node && r.port == port && !r.repaired;
    });
    if (known)
    {
        return; // read by the controller already (Unreachable), or reported twice
    }
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
        const uint32_t host = HostNodeOf(process);
        if (m_failed[process] || component[host] == 0)
        {
            continue;
        }
        failures.push_back(ProcessFailure{process, failureTs[component[host]]});
    }
    Broadcast(failures);
}

void
FailureController::Broadcast(const std::vector<ProcessFailure>& failures)
{
    const size_t logStart = m_failureLog.size();
    for (const ProcessFailure& failure : failures)
    {
        const uint32_t process = failure.process;
        m_failed[process] = true;
        ++m_failedCount;
        m_failedAtLog[process] = logStart;
        m_failureTs[process] = failure.ts;
        m_failureLog.push_back(failure);
        Trace("failed", HostNodeOf(process), -1, process, failure.ts);
        // Over the management network, which still reaches it: the process stops its old
        // identity's sending (a crashed one knows by itself).
        OnePipeEndpoint* endpoint = m_processes[process];
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                 [endpoint] { endpoint->DeclaredFailed(); });
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
        if (m_config.completionTimeoutPs > 0)
        {
            ns3::Simulator::Schedule(Ps(m_config.completionTimeoutPs),
                                     &FailureController::CompletionTimeout, this, m_epoch);
        }
    }
    if (m_awaitingCount == 0 && !Handling())
    {
        Resume();
    }
}

void
FailureController::CompletionTimeout(uint64_t epoch)
{
    if (epoch != m_epoch)
    {
        return; // a later epoch has its own timeout
    }
    // Paper 5.2: a process that does not answer the controller within a timeout is
    // considered failed. Its host's NIC (the representative that keeps its processes' commit
    // barriers, spec 8.8) freezes its part of the host's commit barrier at what it is now and
    // stops it; that value is its failure timestamp: every message of it below is ACKed by all
    // its receivers, and no commit barrier anywhere has passed it.
    for (uint32_t process = 0; process < m_processes.size(); ++process)
    {
        if (!m_awaiting[process] || m_silenced[process])
        {
            continue;
        }
        Trace("timeout", HostNodeOf(process), -1, process, epoch);
        if (!Reachable(process))
        {
            // Its host is down: the switches' registers give its failure timestamp (the
            // report its ToR is about to send, read now).
            Unreachable(process);
            continue;
        }
        m_silenced[process] = true;
        ++m_silencing;
        OnePipeEndpoint* endpoint = m_processes[process];
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs), [this, endpoint, process] {
            const uint64_t ts = endpoint->Silence();
            ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, process, ts] {
                ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveSilenced, this,
                                         process, ts);
            });
        });
    }
}

void
FailureController::ReceiveSilenced(uint32_t process, uint64_t ts)
{
    m_silencedFailures.push_back(ProcessFailure{process, ts});
    if (--m_silencing > 0)
    {
        return;
    }
    std::vector<ProcessFailure> failures;
    failures.swap(m_silencedFailures);
    for (const ProcessFailure& failure : failures)
    {
        m_held.push_back(failure.process);
    }
    // One that Determine declared failed meanwhile (cut off) keeps that failure timestamp.
    failures.erase(std::remove_if(failures.begin(), failures.end(),
                                  [this](const ProcessFailure& f) { return m_failed[f.process]; }),
                   failures.end());
    Broadcast(failures);
}

void
FailureController::ReceiveCompletion(uint32_t process, uint64_t epoch)
{
    if (epoch != m_epoch || !m_awaiting[process])
    {
        return; // an older epoch's: the latest one's is still due
    }
    m_awaiting[process] = false;
    if (--m_awaitingCount == 0 && !Handling())
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
    // The processes failed for silence no longer hold their hosts' commit barriers back.
    for (uint32_t process : m_held)
    {
        OnePipeEndpoint* endpoint = m_processes[process];
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                 [endpoint] { endpoint->ReleaseCommit(); });
    }
    m_held.clear();
    std::vector<std::pair<uint32_t, uint32_t>> deferred;
    deferred.swap(m_deferredRepairs);
    for (const auto& [node, port] : deferred)
    {
        ReceiveRepair(node, port);
    }
    TryRecover();
}

void
FailureController::ReceiveRepair(uint32_t node, uint32_t port)
{
    Report* repaired = nullptr;
    for (Report& report : m_reports)
    {
        if (report.node == node && report.port == port && !report.repaired)
        {
            repaired = &report;
        }
    }
    if (repaired == nullptr)
    {
        return;
    }
    if (!repaired->resumed)
    {
        // Its failure is still being handled: the removal goes first.
        m_deferredRepairs.emplace_back(node, port);
        return;
    }
    repaired->repaired = true;
    Trace("repair", node, port, -1, 0);
    // The link is back in the routing graph once every end that reported it is repaired.
    const uint32_t link = repaired->link;
    m_linkDown[link] = std::any_of(m_reports.begin(), m_reports.end(), [link](const Report& r) {
        return r.link == link && r.applied && !r.repaired;
    });
    ++m_readmissionsPending;
    const Readmit& readmit = m_readmit;
    ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                             [readmit, node, port] { readmit(node, port); });
}

void
FailureController::ReceiveReadmission(uint32_t node, uint32_t port, bool done)
{
    if (!done)
    {
        ++m_readmissionsPending;
        return;
    }
    --m_readmissionsPending;
    Trace("readmitted", node, port, -1, 0);
    TryRecover();
}

void
FailureController::TryRecover()
{
    if (Handling() || m_readmissionsPending > 0)
    {
        return;
    }
    const std::vector<uint32_t> component = Components();
    for (uint32_t process = 0; process < m_processes.size(); ++process)
    {
        const uint32_t host = m_topology.Hosts()[process / m_config.processesPerHost];
        OnePipeEndpoint* endpoint = m_processes[process];
        if (!m_failed[process] || m_recovering[process] || m_silenced[process] ||
            component[host] != 0 || !endpoint->Host().IsUp())
        {
            continue;
        }
        m_recovering[process] = true;
        RecoveryNotice notice;
        // Every failure announced with its own or later (its buffer holds nothing younger),
        // its own included: the others discarded its scatterings from its failure timestamp
        // on, so it must not deliver the messages of those it sent to itself.
        notice.failuresSince.assign(
            m_failureLog.begin() + static_cast<ptrdiff_t>(m_failedAtLog[process]),
            m_failureLog.end());
        for (const UndeliveredRecall& recall : m_recalls)
        {
            if (recall.dst == process)
            {
                notice.recalls.push_back(recall);
            }
        }
        for (uint32_t other = 0; other < m_processes.size(); ++other)
        {
            if (m_failed[other] && other != process)
            {
                notice.failedNow.push_back(ProcessFailure{other, m_failureTs[other]});
            }
        }
        Trace("recover", host, -1, process, 0);
        // Paper 5.2: the controller tells the process it was declared failed, the process
        // asks for what it missed, the controller answers: three messages.
        const int64_t exchange = Serve() + Serve() + Serve() + 3 * m_config.delayPs;
        ns3::Simulator::Schedule(Ps(exchange), [this, endpoint, process, notice] {
            const OnePipeEndpoint::Rejoin rejoin = endpoint->Recover(notice);
            ns3::Simulator::Schedule(Ps(m_config.delayPs), [this, process, rejoin] {
                ns3::Simulator::Schedule(Ps(Serve()), &FailureController::ReceiveJoined, this,
                                         process, rejoin.ts, rejoin.keptBuffer);
            });
        });
    }
}

void
FailureController::ReceiveJoined(uint32_t process, uint64_t ts, bool keptBuffer)
{
    m_failed[process] = false;
    m_recovering[process] = false;
    ++m_rejoins;
    const uint32_t host = HostNodeOf(process);
    m_unreachableHost[host] = false;
    if (keptBuffer)
    {
        Trace("recovered", host, -1, process, ts);
    }
    Trace("rejoined", host, -1, process, ts);
    // Every other process, failed ones too: one recovering now must not take it for failed.
    for (uint32_t other = 0; other < m_processes.size(); ++other)
    {
        if (other == process)
        {
            continue;
        }
        OnePipeEndpoint* endpoint = m_processes[other];
        ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs),
                                 [endpoint, process] { endpoint->PeerRejoined(process); });
    }
    // After them on the management network: the new identity may send.
    OnePipeEndpoint* joined = m_processes[process];
    ns3::Simulator::Schedule(Ps(Serve() + m_config.delayPs), [joined] { joined->Admitted(); });
}

} // namespace incsim::onepipe
