#ifndef INCSIM_ONEPIPE_ONEPIPE_WIRE_H
#define INCSIM_ONEPIPE_ONEPIPE_WIRE_H

#include "sim/net/frame.h"

#include <cstdint>

namespace incsim::onepipe
{

// The 1Pipe wire format of p4/onepipe.p4 (keep the two in step). Every 1Pipe packet carries
// Header: data, ACK and NAK packets after a UDP header (to ports kPortBase + 0 .. 255), and
// beacons directly after an Ethernet header with EtherType kEtherType (one hop only).

constexpr uint16_t kEtherType = 0x88B5;
constexpr uint16_t kPortBase = 0x4000;
constexpr uint32_t kMaxProcessesPerHost = 256;
/// Timestamps are 48-bit ns.
constexpr uint64_t kTimestampMask = (uint64_t{1} << 48) - 1;

enum class Opcode : uint8_t
{
    Data = 1,
    Ack = 2,
    Nak = 3,
    Beacon = 4,
    Tick = 5 ///< a switch's beacon generator to its own pipeline
};

constexpr uint8_t kFlagEndOfMessage = 1;

/// Section 6.1 of the paper: 24 bytes.
struct Header
{
    static constexpr uint32_t kBytes = 24;
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
