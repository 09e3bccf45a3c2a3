#include "protocols/onepipe/baselines/lamport.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <limits>

namespace incsim::onepipe
{

void
LamportProcess::Start(int64_t exchangeIntervalPs)
{
    m_exchangeIntervalPs = exchangeIntervalPs;
    m_lastHeard.assign(Processes(), 0);
    m_exchange = ns3::Simulator::Schedule(Ps(exchangeIntervalPs), &LamportProcess::Exchange, this);
}

void
LamportProcess::Transmit(uint32_t firstSequence, uint32_t bytes)
{
    BaselineHeader header;
    header.kind = BaselineKind::Sequenced;
    header.src = ProcessId();
    header.sequence = firstSequence;
    header.key = ++m_clock;
    header.bytes = bytes;
    SendToAll(header);
    m_sentSinceTick = true;
}

void
LamportProcess::Exchange()
{
    m_exchange = ns3::Simulator::Schedule(Ps(m_exchangeIntervalPs), &LamportProcess::Exchange, this);
    const bool redundant = m_sentSinceTick || m_exchangeQueued;
    m_sentSinceTick = false;
    if (redundant)
    {
        return;
    }
    m_exchangeQueued = true;
    Charge(MessageCostPs() * (Processes() - 1), [this]() {
        m_exchangeQueued = false;
        BaselineHeader header;
        header.kind = BaselineKind::Exchange;
        header.src = ProcessId();
        header.key = m_clock;
        for (uint32_t dst = 0; dst < Processes(); ++dst)
        {
            if (dst != ProcessId())
            {
                SendTo(dst, header, BaselineHeader::kBytes);
            }
        }
    });
}

void
LamportProcess::Receive(const BaselineHeader& header)
{
    if (header.src >= Processes() || header.src == ProcessId())
    {
        return;
    }
    if (header.kind == BaselineKind::Sequenced)
    {
        m_clock = std::max(m_clock, header.key);
        Heard(header.src, header.key);
        Hold(header);
    }
    else if (header.kind == BaselineKind::Exchange)
    {
        // Reading an exchange costs the receive thread a message, as a delivery does.
        Charge(MessageCostPs(), [this, src = header.src, key = header.key]() {
            m_clock = std::max(m_clock, key);
            Heard(src, key);
            DeliverHeld();
        });
    }
}

void
LamportProcess::Heard(uint32_t src, uint64_t key)
{
    const uint64_t previous = m_lastHeard[src];
    m_lastHeard[src] = std::max(previous, key);
    if (previous != m_heardFromAll)
    {
        return; // src was not the laggard
    }
    uint64_t lowest = std::numeric_limits<uint64_t>::max();
    for (uint32_t p = 0; p < m_lastHeard.size(); ++p)
    {
        if (p != ProcessId())
        {
            lowest = std::min(lowest, m_lastHeard[p]);
        }
    }
    m_heardFromAll = lowest;
}

void
LamportProcess::DoDispose()
{
    m_exchange.Cancel();
    OrderedBroadcast::DoDispose();
}

} // namespace incsim::onepipe
