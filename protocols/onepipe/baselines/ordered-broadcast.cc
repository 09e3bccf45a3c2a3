#include "protocols/onepipe/baselines/ordered-broadcast.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

namespace incsim::onepipe
{

std::optional<BaselineHeader>
ReadBaselineHeader(const Datagram& datagram)
{
    if (datagram.materialised < BaselineHeader::kBytes)
    {
        return std::nullopt;
    }
    return BaselineHeader::Read(datagram.bytes);
}

void
OrderedBroadcast::DoReceive(const Datagram& datagram)
{
    if (const auto header = ReadBaselineHeader(datagram))
    {
        Receive(*header);
    }
}

void
OrderedBroadcast::Configure(uint32_t processId, const BaselineSetup& setup)
{
    m_processId = processId;
    m_setup = setup;
    m_packet.resize(BaselineHeader::kBytes);
}

void
OrderedBroadcast::Broadcast(const std::vector<Outgoing>& scattering)
{
    if (scattering.empty())
    {
        return;
    }
    const uint32_t first = m_nextSequence;
    const uint32_t bytes = scattering.front().bytes;
    m_nextSequence += static_cast<uint32_t>(scattering.size());
    Stats& stats = RunStats();
    for (size_t i = 0; i < scattering.size(); ++i)
    {
        stats.sendPs[m_processId].push_back(NowPs());
    }
    stats.messagesOffered += scattering.size();
    Charge(MessageCostPs() * static_cast<int64_t>(scattering.size()),
           [this, first, bytes]() { Transmit(first, bytes); });
}

bool
OrderedBroadcast::SendToHost(uint32_t host, uint16_t port, const BaselineHeader& header,
                             uint32_t payloadBytes)
{
    header.Write(m_packet.data());
    ++RunStats().packetsSent;
    return Send(host, port, m_packet.data(), BaselineHeader::kBytes, payloadBytes,
                m_setup.priority);
}

bool
OrderedBroadcast::SendTo(uint32_t process, const BaselineHeader& header, uint32_t payloadBytes)
{
    return SendToHost(process / m_setup.processesPerHost,
                      static_cast<uint16_t>(kPortBase + process % m_setup.processesPerHost), header,
                      payloadBytes);
}

void
OrderedBroadcast::SendToAll(const BaselineHeader& header)
{
    for (uint32_t dst = 0; dst < m_setup.processes; ++dst)
    {
        if (dst != m_processId)
        {
            SendTo(dst, header, BaselineHeader::kBytes + header.bytes);
        }
    }
    LogSent(header.sequence, header.key, header.bytes);
}

void
OrderedBroadcast::LogSent(uint32_t firstSequence, uint64_t key, uint32_t bytes)
{
    uint32_t sequence = firstSequence;
    for (uint32_t dst = 0; dst < m_setup.processes; ++dst)
    {
        if (dst != m_processId)
        {
            LogSend(RunStats(), m_setup.traces, m_processId, sequence++, dst, key, bytes);
        }
    }
    if (m_onTransmitted)
    {
        // It has left once the NIC has sent what it holds now, as an RDMA send completes.
        ns3::Simulator::Schedule(Ps(NicBacklogPs()), m_onTransmitted);
    }
}

void
OrderedBroadcast::Hold(const BaselineHeader& header)
{
    const bool own = header.src == m_processId;
    // The broadcast's messages go to every other process in order: this one's index.
    const uint32_t index = m_processId < header.src ? m_processId : m_processId - 1;
    m_held.push(Held{header.key, header.src, header.sequence + (own ? 0 : index), own});
    DeliverHeld();
}

void
OrderedBroadcast::DeliverHeld()
{
    while (!m_held.empty() && Deliverable(m_held.top()))
    {
        const Held held = m_held.top();
        m_held.pop();
        Released(held);
        if (held.own)
        {
            continue;
        }
        Charge(MessageCostPs(), [this, held]() {
            LogDelivery(RunStats(), m_setup.traces, m_processId, held.src, held.sequence, held.key,
                        static_cast<uint64_t>(LocalTimeNs()), 0);
        });
    }
}

} // namespace incsim::onepipe
