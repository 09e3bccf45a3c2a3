#ifndef INCSIM_ONEPIPE_BASELINES_LAMPORT_H
#define INCSIM_ONEPIPE_BASELINES_LAMPORT_H

#include "protocols/onepipe/baselines/ordered-broadcast.h"

#include <ns3/event-id.h>

#include <vector>

namespace incsim::onepipe
{

/// Total-order broadcast on Lamport timestamps (the paper's [63]) with the common optimisation
/// the paper applies: processes exchange their clocks every `exchange_interval` instead of
/// acknowledging every message. A broadcast carries key = ++clock; receivers advance their
/// clock to the largest key seen, and deliver a held broadcast in (key, sender) order once
/// every other process has sent something (a broadcast or an exchange) with a key at least as
/// large: FIFO links then guarantee nothing smaller can follow. Each exchange is a message to
/// every other process, charged to the CPU like any other (sending and receiving): the
/// latency/throughput trade-off. An exchange is skipped when a broadcast left since the last
/// tick (it told every process a clock as recent) or when the previous one still waits for the
/// CPU: at 512 processes an exchange costs 511 messages, more CPU than one interval holds, and
/// queueing one per tick would bury every broadcast and delivery behind them.
class LamportProcess : public OrderedBroadcast
{
  public:
    void Start(int64_t exchangeIntervalPs);

  private:
    void Transmit(uint32_t firstSequence, uint32_t bytes) override;
    bool Deliverable(const Held& next) const override { return next.key <= m_heardFromAll; }
    void Receive(const BaselineHeader& header) override;
    void DoDispose() override;
    void Heard(uint32_t src, uint64_t key);
    void Exchange();

    uint64_t m_clock = 0;
    std::vector<uint64_t> m_lastHeard; ///< per process
    uint64_t m_heardFromAll = 0;       ///< min of m_lastHeard over the other processes
    int64_t m_exchangeIntervalPs = 0;
    ns3::EventId m_exchange;
    bool m_exchangeQueued = false; ///< an exchange waits for the CPU
    bool m_sentSinceTick = false;  ///< a broadcast left since the last exchange tick
};

} // namespace incsim::onepipe

#endif
