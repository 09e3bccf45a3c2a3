#ifndef INCSIM_ONEPIPE_PREPARE_CHANNELS_H
#define INCSIM_ONEPIPE_PREPARE_CHANNELS_H

#include "sim/host/reliable-channel.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace incsim::onepipe
{

/// One packet of a reliable message: what a prepare segment carries.
struct Segment
{
    uint64_t ts = 0;
    uint32_t sequence = 0;
    uint16_t fragment = 0;
    uint16_t fragments = 1;
    uint32_t messageBytes = 0;
    uint32_t payloadBytes = 0; ///< this fragment's share of the message
};

/// A reliable-1Pipe sender's prepare phase (paper 5.1): one ReliableChannel (go-back-N, the
/// protocol-neutral reliable transport) per destination process, made at the first message to
/// it, and which of the sender's scatterings still wait for ACKs. The sender's commit barrier
/// comes from here: every scattering below OldestUnacked() is held by all its receivers.
class PrepareChannels
{
  public:
    using Channel = ReliableChannel<Segment>;
    /// The hooks of the channel to `dst` (how segments and ACKs go on the wire, and delivery
    /// at the receiver).
    using HooksFor = std::function<Channel::Hooks(uint32_t dst)>;
    static constexpr uint64_t kNone = ~uint64_t{0};

    PrepareChannels(HooksFor hooksFor, int64_t retransmitPs);

    /// A scattering with timestamp `ts` starts; its segments follow with Send.
    void BeginScattering(uint64_t ts);
    /// Sends a segment of the current scattering to `dst`.
    void Send(uint32_t dst, const Segment& segment);
    /// The receiver `dst` acknowledged every segment below `next`. Returns whether the oldest
    /// un-ACKed scattering changed (the commit barrier may advance).
    bool ReceiveAck(uint32_t dst, uint32_t next);
    /// The channel to `dst`, null before the first message to it (the receiver's side).
    Channel* Find(uint32_t dst) const;
    /// The timestamp of the oldest scattering not yet ACKed by all its receivers, or kNone.
    uint64_t OldestUnacked() const { return m_pending.empty() ? kNone : m_pending.front().ts; }
    uint64_t Retransmitted() const;

  private:
    struct Pending
    {
        uint64_t ts;
        uint32_t unacked; ///< segments not yet ACKed
    };
    struct Link
    {
        std::unique_ptr<Channel> channel;
        /// Per un-ACKed segment, in channel order: its scattering's number.
        std::deque<uint64_t> scatterings;
    };

    HooksFor m_hooksFor;
    int64_t m_retransmitPs;
    std::vector<Link> m_links; ///< by destination process
    std::deque<Pending> m_pending; ///< scatterings m_firstPending, m_firstPending + 1, ...
    uint64_t m_firstPending = 0;
};

} // namespace incsim::onepipe

#endif
