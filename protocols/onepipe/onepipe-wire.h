#ifndef INCSIM_ONEPIPE_ONEPIPE_WIRE_H
#define INCSIM_ONEPIPE_ONEPIPE_WIRE_H

#include "sim/net/frame.h"

#include "onepipe-contract.h"

#include <cstdint>

namespace incsim::onepipe
{

// The 1Pipe wire format of p4/onepipe.p4, from its generated contract (onepipe-contract.h), so
// that a change to the program's constants or header that this code does not follow fails the
// build. Every 1Pipe packet carries Header: data, ACK and NAK packets after a UDP header (to
// ports kPortBase + 0 .. 255), and beacons directly after an Ethernet header with EtherType
// kEtherType (one hop only).

namespace contract = p4gen::onepipe::contract;

constexpr uint16_t kEtherType = contract::ETHERTYPE_ONEPIPE;
constexpr uint16_t kPortBase = contract::ONEPIPE_PORT_BASE;
/// The ports the program's parser takes for 1Pipe: kPortBase under ONEPIPE_PORT_MASK.
constexpr uint32_t kMaxProcessesPerHost = (~uint32_t{contract::ONEPIPE_PORT_MASK} & 0xffff) + 1;
static_assert((kPortBase & ~uint32_t{contract::ONEPIPE_PORT_MASK}) == 0);
/// Timestamps are 48-bit ns.
constexpr uint64_t kTimestampMask = (uint64_t{1} << contract::onepipe_t::msg_ts::kWidth) - 1;

enum class Opcode : uint8_t
{
    Data = contract::OP_DATA,
    Ack = contract::OP_ACK,
    Nak = contract::OP_NAK,
    Beacon = contract::OP_BEACON,
    Tick = contract::OP_TICK, ///< a switch's beacon generator to its own pipeline
    /// Reliable service: a prepare segment (a ReliableChannel segment, psn = its sequence
    /// number, then a MessageHeader); switches forward it untouched.
    Prepare = contract::OP_RDATA,
    /// Reliable service: the channel's cumulative ACK (psn = the next sequence number).
    PrepareAck = contract::OP_RACK
};

constexpr uint8_t kFlagEndOfMessage = contract::FLAG_END_OF_MESSAGE;
/// A switch's beacon to a port that is out (docs/onepipe.md, "Rejoining"): the message
/// timestamp is the barrier the port must pass to be admitted again.
constexpr uint8_t kFlagJoin = contract::FLAG_JOIN;
/// A prepare ACK sent for a segment beyond the next expected: the one it names was lost
/// (RoCE's sequence-error NAK; ReliableChannel).
constexpr uint8_t kFlagSequenceError = contract::FLAG_SEQUENCE_ERROR;

/// Section 6.1 of the paper: 24 bytes.
struct Header
{
    using Layout = contract::onepipe_t;
    static constexpr uint32_t kBytes = Layout::kBytes;
    // Byte offsets of the fields, for Write and Read.
    static constexpr uint32_t kMessageTsByte = Layout::msg_ts::kOffset / 8;
    static constexpr uint32_t kBarrierByte = Layout::barrier::kOffset / 8;
    static constexpr uint32_t kCommitBarrierByte = Layout::commit_barrier::kOffset / 8;
    static constexpr uint32_t kPsnByte = Layout::psn::kOffset / 8;
    static constexpr uint32_t kOpcodeByte = Layout::opcode::kOffset / 8;
    static constexpr uint32_t kFlagsByte = Layout::flags::kOffset / 8;
    static_assert(Layout::msg_ts::kWidth == 48 && Layout::barrier::kWidth == 48 &&
                      Layout::commit_barrier::kWidth == 48 && Layout::psn::kWidth == 32 &&
                      Layout::opcode::kWidth == 8 && Layout::flags::kWidth == 8,
                  "Write and Read encode these widths");
    static_assert(Layout::msg_ts::kOffset % 8 == 0 && Layout::barrier::kOffset % 8 == 0 &&
                      Layout::commit_barrier::kOffset % 8 == 0 && Layout::psn::kOffset % 8 == 0 &&
                      Layout::opcode::kOffset % 8 == 0 && Layout::flags::kOffset % 8 == 0,
                  "Write and Read encode whole bytes");
    uint64_t messageTs = 0;
    uint64_t barrier = 0;
    uint64_t commitBarrier = 0;
    uint32_t psn = 0;
    Opcode opcode = Opcode::Data;
    uint8_t flags = 0;

    void Write(uint8_t* out) const;
    static Header Read(const uint8_t* in);
};

/// After the Header of a data packet: which message, and which fragment of it.
struct MessageHeader
{
    static constexpr uint32_t kBytes = 12;
    uint32_t sequence = 0; ///< per sending process
    uint16_t fragment = 0;
    uint16_t fragments = 1;
    uint32_t messageBytes = 0;

    void Write(uint8_t* out) const;
    static MessageHeader Read(const uint8_t* in);
};

/// After the Header of an ACK or NAK: the clock feedback (ns, signed; ACKs of the logical
/// clock variant), a count, then that many 32-bit message sequence numbers.
struct AckHeader
{
    static constexpr uint32_t kBytes = 6;
    int32_t feedbackNs = 0;
    uint16_t count = 0;

    void Write(uint8_t* out) const;
    static AckHeader Read(const uint8_t* in);
};

/// A one-hop 1Pipe frame (beacon or tick): Ethernet broadcast from `srcMac`, then a Header.
FramePtr MakeBeaconFrame(uint64_t srcMac, const Header& header, uint8_t priority);

void Store48(uint8_t* out, uint64_t value);
uint64_t Load48(const uint8_t* in);

} // namespace incsim::onepipe

#endif
