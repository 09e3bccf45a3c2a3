#ifndef INCSIM_NET_HEADERS_H
#define INCSIM_NET_HEADERS_H

#include "sim/net/frame.h"

#include <cstdint>

namespace incsim
{

// Real framing, as a P4 parser on hardware sees it: Ethernet II, IPv4 (no options), UDP.
// Fields are big-endian on the wire.
constexpr uint32_t kEthernetHeaderBytes = 14;
constexpr uint32_t kIpv4HeaderBytes = 20;
constexpr uint32_t kUdpHeaderBytes = 8;
constexpr uint32_t kUdpFrameOverhead = kEthernetHeaderBytes + kIpv4HeaderBytes + kUdpHeaderBytes;
/// Preamble (8), FCS (4) and inter-frame gap (12): on the wire but not in the frame bytes.
constexpr uint32_t kWireOverheadBytes = 24;
/// Smallest Ethernet frame without FCS.
constexpr uint32_t kMinFrameBytes = 60;
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint8_t kIpProtoUdp = 17;

// Offsets of the fields incsim reads in its own C++ (P4 programs parse for themselves).
constexpr uint32_t kIpv4Offset = kEthernetHeaderBytes;
constexpr uint32_t kIpv4TosOffset = kIpv4Offset + 1;
constexpr uint32_t kIpv4TtlOffset = kIpv4Offset + 8;
constexpr uint32_t kIpv4ChecksumOffset = kIpv4Offset + 10;
constexpr uint32_t kIpv4SrcOffset = kIpv4Offset + 12;
constexpr uint32_t kIpv4DstOffset = kIpv4Offset + 16;
constexpr uint32_t kUdpOffset = kIpv4Offset + kIpv4HeaderBytes;
constexpr uint32_t kUdpPayloadOffset = kUdpOffset + kUdpHeaderBytes;

/// Host index i has IPv4 address 10.0.0.0 + i and MAC 02:00:00:00:00:00 + node id + 1. Hosts
/// under one edge switch or pod have consecutive indices, so with power-of-two groups their
/// addresses form aligned prefixes and switches can route them with one entry per group.
/// Switches have no IP address.
constexpr uint32_t kHostIpv4Base = 0x0A000000u;
constexpr uint32_t HostIpv4(uint32_t hostIndex) { return kHostIpv4Base + hostIndex; }
uint64_t NodeMac(uint32_t nodeId);

inline uint16_t
LoadBe16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

inline uint32_t
LoadBe32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

inline uint64_t
LoadBe64(const uint8_t* p)
{
    return (uint64_t(LoadBe32(p)) << 32) | LoadBe32(p + 4);
}

inline void
StoreBe16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

inline void
StoreBe32(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

inline void
StoreBe64(uint8_t* p, uint64_t v)
{
    StoreBe32(p, static_cast<uint32_t>(v >> 32));
    StoreBe32(p + 4, static_cast<uint32_t>(v));
}

/// The addressing of one UDP datagram.
struct UdpAddress
{
    uint32_t srcHost = 0;
    uint32_t dstHost = 0;
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    uint64_t srcMac = 0;
    uint64_t dstMac = 0;
    uint8_t dscp = 0;
    uint8_t ecn = 0; ///< the IPv4 ECN field (RFC 3168): kEcnNotEct or kEcnEct0
};

/// The ECN codepoints of RFC 3168 (the two low bits of the IPv4 TOS byte).
constexpr uint8_t kEcnNotEct = 0;
constexpr uint8_t kEcnEct0 = 2;
constexpr uint8_t kEcnCe = 3;

/// Writes Ethernet/IPv4/UDP headers for `payloadBytes` bytes of UDP payload, of which
/// `materialised` follow the headers in `frame.data` (the caller writes them). Sets length and
/// wireLength (padded to the Ethernet minimum).
void WriteUdpHeaders(Frame& frame, const UdpAddress& address, uint32_t payloadBytes,
                     uint32_t materialised);

/// A parsed view of a UDP frame's headers; `valid` is false for anything else.
struct UdpView
{
    bool valid = false;
    uint32_t srcHost = 0;
    uint32_t dstHost = 0;
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    uint32_t payloadBytes = 0;
    const uint8_t* payload = nullptr; ///< materialised payload bytes
    uint32_t payloadMaterialised = 0;
    uint8_t ecn = 0;
};

UdpView ParseUdp(const Frame& frame);

/// A switch queue marks congestion: an ECN-capable IPv4 frame becomes CE (with an incremental
/// checksum update); anything else is left alone. Returns whether it marked.
bool MarkCongestionExperienced(Frame& frame);

uint16_t Ipv4HeaderChecksum(const uint8_t* header);

/// Decrements the IPv4 TTL with an incremental checksum update (RFC 1624). Returns the new TTL.
uint8_t DecrementTtl(Frame& frame);

/// 5-tuple hash for ECMP, salted per switch so that hashing does not polarise across layers.
uint32_t FlowHash(const Frame& frame, uint32_t salt);

} // namespace incsim

#endif
