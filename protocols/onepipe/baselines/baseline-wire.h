#ifndef INCSIM_ONEPIPE_BASELINES_BASELINE_WIRE_H
#define INCSIM_ONEPIPE_BASELINES_BASELINE_WIRE_H

#include <cstdint>

namespace incsim::onepipe
{

// The wire format of the total-order broadcast baselines (p4/sequencer.p4's baseline_t; keep
// the two in step). Processes keep 1Pipe's UDP ports (kPortBase + index on the host).

/// Broadcasts to the sequencer (the switch's detour, or the sequencer host's port).
constexpr uint16_t kSequencerPort = 0x5000;

enum class BaselineKind : uint8_t
{
    Data = 1,      ///< a broadcast on its way to the sequencer
    Sequenced = 2, ///< a broadcast with its place in the order (key)
    Token = 3,     ///< token passing: the token, with the next key to hand out
    Exchange = 4   ///< Lamport: a process's clock, sent to everyone periodically
};

/// 24 bytes, the size of 1Pipe's header, so messages cost the same on the wire.
struct BaselineHeader
{
    static constexpr uint32_t kBytes = 24;
    BaselineKind kind = BaselineKind::Data;
    uint32_t src = 0;      ///< the sending process
    uint32_t sequence = 0; ///< the sender's first per-destination message sequence number
    uint64_t key = 0;      ///< the delivery order: global sequence number or Lamport clock
    uint32_t bytes = 0;    ///< message size

    void Write(uint8_t* out) const;
    static BaselineHeader Read(const uint8_t* in);
};

} // namespace incsim::onepipe

#endif
