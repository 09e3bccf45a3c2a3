#include "protocols/onepipe/failure-detector.h"

#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <stdexcept>

namespace incsim::onepipe
{

namespace
{
p4rt::ControlPlane&
ControlOf(SwitchDevice& device)
{
    auto* pipeline = dynamic_cast<P4Pipeline*>(device.GetPipeline());
    if (pipeline == nullptr)
    {
        throw std::logic_error("ChipCommitInputs: the switch does not run onepipe.p4");
    }
    return pipeline->Control();
}
} // namespace

uint32_t
ChipCommitInputs::SilentCommitInputs() const
{
    const p4rt::ControlPlane& control = ControlOf(m_device);
    const uint64_t live = control.ReadRegister(contract::MyIngress::live_ports::kName, 0).Low64();
    const uint64_t commit =
        control.ReadRegister(contract::MyIngress::commit_live::kName, 0).Low64();
    return static_cast<uint32_t>(commit & ~live);
}

uint64_t
ChipCommitInputs::LastCommit(uint32_t port) const
{
    return ControlOf(m_device).ReadRegister(contract::MyIngress::port_commit::kName, port).Low64();
}

void
ChipCommitInputs::RemoveCommitInput(uint32_t port)
{
    p4rt::ControlPlane& control = ControlOf(m_device);
    const uint64_t commit =
        control.ReadRegister(contract::MyIngress::commit_live::kName, 0).Low64();
    control.WriteRegister(contract::MyIngress::commit_live::kName, 0,
                          p4rt::BitString(commit & ~(uint64_t{1} << port)));
}

uint32_t
ChipCommitInputs::LivePorts() const
{
    return static_cast<uint32_t>(
        ControlOf(m_device).ReadRegister(contract::MyIngress::live_ports::kName, 0).Low64());
}

void
ChipCommitInputs::ReadmitCommitInput(uint32_t port)
{
    p4rt::ControlPlane& control = ControlOf(m_device);
    const uint64_t commit =
        control.ReadRegister(contract::MyIngress::commit_live::kName, 0).Low64();
    control.WriteRegister(contract::MyIngress::commit_live::kName, 0,
                          p4rt::BitString(commit | (uint64_t{1} << port)));
    const uint64_t upMark =
        control.ReadRegister(contract::MyIngress::commit_high::kName, 0).Low64();
    if (((m_upPorts >> port) & 1) == 0 && upMark == kTimestampMask)
    {
        control.WriteRegister(contract::MyIngress::commit_high::kName, 0, p4rt::BitString(0));
    }
}

FailureDetector::FailureDetector(SwitchDevice& device, CommitInputs& inputs, int64_t intervalPs,
                                 Callbacks callbacks)
    : m_device(device),
      m_inputs(inputs),
      m_intervalPs(intervalPs),
      m_callbacks(std::move(callbacks))
{
}

FailureDetector::~FailureDetector()
{
    m_poll.Cancel();
}

void
FailureDetector::Start()
{
    // Half an interval after each synchronized tick, when the tick's timeouts are applied.
    const int64_t now = NowPs();
    const int64_t first = (now / m_intervalPs + 1) * m_intervalPs + m_intervalPs / 2;
    m_poll = ns3::Simulator::Schedule(ns3::PicoSeconds(first - now), &FailureDetector::Poll, this);
}

void
FailureDetector::Poll()
{
    m_poll = ns3::Simulator::Schedule(ns3::PicoSeconds(m_intervalPs), &FailureDetector::Poll, this);
    if (!m_device.IsUp())
    {
        m_wasDown = true;
        return;
    }
    const uint32_t node = m_device.NodeId();
    if (m_wasDown)
    {
        // The crash wiped the commit inputs: every port comes back once its neighbour has sent
        // a commit barrier again.
        m_wasDown = false;
        m_reported = 0;
        const uint32_t ports = std::min<uint32_t>(m_device.NumPorts(), 32);
        m_returning = ports == 32 ? ~0u : (1u << ports) - 1;
    }
    for (uint32_t live = m_returning & m_inputs.LivePorts(); live != 0; live &= live - 1)
    {
        const uint32_t port = static_cast<uint32_t>(__builtin_ctz(live));
        if (m_inputs.LastCommit(port) == 0)
        {
            continue; // nothing heard from that neighbour since the crash
        }
        m_returning &= ~(1u << port);
        m_readmitting |= 1u << port;
        m_callbacks.readmission(node, port, false);
    }
    uint32_t silent = m_inputs.SilentCommitInputs() & ~m_reported;
    while (silent != 0)
    {
        const uint32_t port = static_cast<uint32_t>(__builtin_ctz(silent));
        silent &= silent - 1;
        m_reported |= 1u << port;
        m_callbacks.report(node, port, m_inputs.LastCommit(port));
    }
    for (uint32_t back = m_inputs.LivePorts() & m_reported; back != 0;
         back &= back - 1)
    {
        const uint32_t port = static_cast<uint32_t>(__builtin_ctz(back));
        m_reported &= ~(1u << port);
        m_callbacks.repaired(node, port, false);
    }
    for (uint32_t pending = m_readmitting; pending != 0; pending &= pending - 1)
    {
        const uint32_t port = static_cast<uint32_t>(__builtin_ctz(pending));
        m_inputs.ReadmitCommitInput(port);
        m_callbacks.readmission(node, port, true);
    }
    m_readmitting = 0;
}

} // namespace incsim::onepipe
