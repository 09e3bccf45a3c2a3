#include "protocols/onepipe/baselines/sequencer.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe
{

void
SequencedProcess::Transmit(uint32_t firstSequence, uint32_t bytes)
{
    BaselineHeader header;
    header.kind = BaselineKind::Data;
    header.src = ProcessId();
    header.sequence = firstSequence;
    header.bytes = bytes;
    SendToHost(m_sequencerHost, kSequencerPort, header, BaselineHeader::kBytes + bytes);
    // The key is the sequencer's to give; the sends trace gets 0 (the checker knows).
    LogSent(firstSequence, 0, bytes);
}

void
SequencedProcess::Receive(const BaselineHeader& header)
{
    if (header.kind == BaselineKind::Sequenced)
    {
        Hold(header);
    }
}

void
HostSequencer::Configure(const BaselineSetup& setup, int64_t costPerCopyPs)
{
    m_setup = setup;
    m_costPerCopyPs = costPerCopyPs;
    m_packet.resize(BaselineHeader::kBytes);
}

void
HostSequencer::DoReceive(const Datagram& datagram)
{
    std::optional<BaselineHeader> received = ReadBaselineHeader(datagram);
    if (!received || received->kind != BaselineKind::Data)
    {
        return;
    }
    BaselineHeader header = *received;
    header.kind = BaselineKind::Sequenced;
    header.key = ++m_lastKey;
    const int64_t start = std::max(NowPs(), m_busyUntilPs);
    m_busyUntilPs = start + m_costPerCopyPs * m_setup.processes;
    ns3::Simulator::Schedule(Ps(m_busyUntilPs - NowPs()), &HostSequencer::Replicate, this, header);
}

void
HostSequencer::Replicate(BaselineHeader header)
{
    header.Write(m_packet.data());
    for (uint32_t process = 0; process < m_setup.processes; ++process)
    {
        ++m_setup.stats->packetsSent;
        Send(process / m_setup.processesPerHost,
             static_cast<uint16_t>(kPortBase + process % m_setup.processesPerHost), m_packet.data(),
             BaselineHeader::kBytes, BaselineHeader::kBytes + header.bytes, m_setup.priority);
    }
}

} // namespace incsim::onepipe
