#ifndef INCSIM_ONEPIPE_BASELINES_BASELINE_WIRE_H
#define INCSIM_ONEPIPE_BASELINES_BASELINE_WIRE_H

#include "sequencer-contract.h"

#include <cstdint>

namespace incsim::onepipe
{

// The wire format of the total-order broadcast baselines: p4/sequencer.p4's baseline_t, from
// its generated contract (sequencer-contract.h), so that a change to the program's header that
// this code does not follow fails the build. Processes keep 1Pipe's UDP ports (kPortBase +
// index on the host).

namespace sequencer_contract = p4gen::sequencer::contract;

/// Broadcasts to the sequencer (the switch's detour, or the sequencer host's port).
constexpr uint16_t kSequencerPort = sequencer_contract::SEQUENCER_PORT;

enum class BaselineKind : uint8_t
{
    Data = 1,                                       ///< a broadcast on its way to the sequencer
    Sequenced = sequencer_contract::KIND_SEQUENCED, ///< a broadcast with its place in the order
    Token = 3,   ///< token passing: the token, with the next key to hand out
    Exchange = 4 ///< Lamport: a process's clock, sent to everyone periodically
};

/// 24 bytes, the size of 1Pipe's header, so messages cost the same on the wire.
struct BaselineHeader
{
    using Layout = sequencer_contract::baseline_t;
    static constexpr uint32_t kBytes = Layout::kBytes;
    static constexpr uint32_t kKindByte = Layout::kind::kOffset / 8;
    static constexpr uint32_t kSrcByte = Layout::src::kOffset / 8;
    static constexpr uint32_t kSequenceByte = Layout::sequence::kOffset / 8;
    static constexpr uint32_t kKeyByte = Layout::key::kOffset / 8;
    static constexpr uint32_t kBytesByte = Layout::bytes::kOffset / 8;
    static_assert(Layout::kind::kWidth == 8 && Layout::src::kWidth == 32 &&
                      Layout::sequence::kWidth == 32 && Layout::key::kWidth == 64 &&
                      Layout::bytes::kWidth == 32,
                  "Write and Read encode these widths");
    static_assert(Layout::kind::kOffset % 8 == 0 && Layout::src::kOffset % 8 == 0 &&
                      Layout::sequence::kOffset % 8 == 0 && Layout::key::kOffset % 8 == 0 &&
                      Layout::bytes::kOffset % 8 == 0,
                  "Write and Read encode whole bytes");
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
