#ifndef INCSIM_ONEPIPE_BASELINES_SEQUENCER_H
#define INCSIM_ONEPIPE_BASELINES_SEQUENCER_H

#include "protocols/onepipe/baselines/ordered-broadcast.h"

namespace incsim::onepipe
{

/// A process of the centralized-sequencer baselines: it sends each broadcast once, to the
/// sequencer, which stamps the next global sequence number and sends a copy to every process
/// (the sender included, so it learns its broadcast's place). Receivers deliver in sequence
/// number order, without gaps. The sequencer is a switch running p4/sequencer.p4 (broadcasts
/// to UDP port kSequencerPort detour to it from the first switch) or a HostSequencer.
class SequencedProcess : public OrderedBroadcast
{
  public:
    /// `sequencerHost`: where broadcasts are addressed (the sequencer host; for the switch
    /// sequencer any host, since the first switch takes them towards the sequencer).
    void SetSequencer(uint32_t sequencerHost) { m_sequencerHost = sequencerHost; }

  private:
    void Transmit(uint32_t firstSequence, uint32_t bytes) override;
    bool Deliverable(const Held& next) const override { return next.key == m_nextKey; }
    void Released(const Held& /*held*/) override { ++m_nextKey; }
    void Receive(const BaselineHeader& header) override;

    uint32_t m_sequencerHost = 0;
    uint64_t m_nextKey = 1;
};

/// The sequencer on a host NIC: stamps broadcasts arriving on kSequencerPort in arrival order
/// and sends a copy to every process. It serves one copy at a time, `costPerCopy` each (the
/// NIC's message rate), so its NIC and its rate bound the system's throughput.
class HostSequencer : public Endpoint
{
  public:
    void Configure(const BaselineSetup& setup, int64_t costPerCopyPs);

  private:
    void DoReceive(const Datagram& datagram) override;
    void Replicate(BaselineHeader header);

    BaselineSetup m_setup;
    int64_t m_costPerCopyPs = 0;
    int64_t m_busyUntilPs = 0;
    uint64_t m_lastKey = 0;
    std::vector<uint8_t> m_packet;
};

} // namespace incsim::onepipe

#endif
