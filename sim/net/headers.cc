#include "sim/net/headers.h"

#include "sim/core/rng.h"

#include "lib_headers-contract.h"

#include <algorithm>

namespace incsim
{

// The framing is p4/lib/headers.p4's, which the switch programs parse.
namespace lib = p4gen::lib_headers::contract;
static_assert(kEthernetHeaderBytes == lib::ethernet_t::kBytes &&
              kIpv4HeaderBytes == lib::ipv4_t::kBytes && kUdpHeaderBytes == lib::udp_t::kBytes);
static_assert(kEtherTypeIpv4 == lib::ETHERTYPE_IPV4 && kIpProtoUdp == lib::IPPROTO_UDP);
static_assert(kIpv4TtlOffset == kIpv4Offset + lib::ipv4_t::ttl::kOffset / 8 &&
              kIpv4ChecksumOffset == kIpv4Offset + lib::ipv4_t::hdrChecksum::kOffset / 8 &&
              kIpv4SrcOffset == kIpv4Offset + lib::ipv4_t::srcAddr::kOffset / 8 &&
              kIpv4DstOffset == kIpv4Offset + lib::ipv4_t::dstAddr::kOffset / 8);

uint64_t
NodeMac(uint32_t nodeId)
{
    return 0x020000000000ULL + nodeId + 1;
}

static void
StoreMac(uint8_t* p, uint64_t mac)
{
    for (int i = 0; i < 6; ++i)
    {
        p[i] = static_cast<uint8_t>(mac >> (8 * (5 - i)));
    }
}

uint16_t
Ipv4HeaderChecksum(const uint8_t* header)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < kIpv4HeaderBytes; i += 2)
    {
        if (i != 10)
        {
            sum += LoadBe16(header + i);
        }
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

void
WriteUdpHeaders(Frame& frame, const UdpAddress& address, uint32_t payloadBytes,
                uint32_t materialised)
{
    uint8_t* d = frame.data;
    StoreMac(d, address.dstMac);
    StoreMac(d + 6, address.srcMac);
    StoreBe16(d + 12, kEtherTypeIpv4);

    uint8_t* ip = d + kIpv4Offset;
    ip[0] = 0x45;
    ip[1] = static_cast<uint8_t>(address.dscp << 2 | (address.ecn & 3));
    StoreBe16(ip + 2, static_cast<uint16_t>(kIpv4HeaderBytes + kUdpHeaderBytes + payloadBytes));
    StoreBe16(ip + 4, 0);
    StoreBe16(ip + 6, 0x4000); // don't fragment
    ip[8] = 64;
    ip[9] = kIpProtoUdp;
    StoreBe32(ip + 12, HostIpv4(address.srcHost));
    StoreBe32(ip + 16, HostIpv4(address.dstHost));
    StoreBe16(ip + 10, Ipv4HeaderChecksum(ip));

    uint8_t* udp = d + kUdpOffset;
    StoreBe16(udp, address.srcPort);
    StoreBe16(udp + 2, address.dstPort);
    StoreBe16(udp + 4, static_cast<uint16_t>(kUdpHeaderBytes + payloadBytes));
    StoreBe16(udp + 6, 0); // no checksum, as allowed for UDP over IPv4

    frame.length = kUdpFrameOverhead + materialised;
    frame.wireLength = std::max(kUdpFrameOverhead + payloadBytes, kMinFrameBytes);
}

UdpView
ParseUdp(const Frame& frame)
{
    UdpView view;
    const uint8_t* d = frame.data;
    if (frame.length < kUdpFrameOverhead || LoadBe16(d + 12) != kEtherTypeIpv4 ||
        d[kIpv4Offset] != 0x45 || d[kIpv4Offset + 9] != kIpProtoUdp)
    {
        return view;
    }
    view.srcHost = LoadBe32(d + kIpv4SrcOffset) - kHostIpv4Base;
    view.dstHost = LoadBe32(d + kIpv4DstOffset) - kHostIpv4Base;
    view.srcPort = LoadBe16(d + kUdpOffset);
    view.dstPort = LoadBe16(d + kUdpOffset + 2);
    view.payloadBytes = LoadBe16(d + kUdpOffset + 4) - kUdpHeaderBytes;
    view.payload = d + kUdpPayloadOffset;
    view.payloadMaterialised = frame.length - kUdpFrameOverhead;
    view.ecn = d[kIpv4TosOffset] & 3;
    view.valid = true;
    return view;
}

namespace
{
/// RFC 1624's incremental checksum update after the IPv4 header word at `offset` changed.
void
UpdateIpv4Checksum(uint8_t* ip, uint16_t oldWord, uint16_t newWord)
{
    // HC' = ~(~HC + ~m + m')
    uint32_t sum = static_cast<uint16_t>(~LoadBe16(ip + 10)) + static_cast<uint16_t>(~oldWord) +
                   newWord;
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    StoreBe16(ip + 10, static_cast<uint16_t>(~sum));
}
} // namespace

uint8_t
DecrementTtl(Frame& frame)
{
    uint8_t* ip = frame.data + kIpv4Offset;
    uint16_t oldWord = LoadBe16(ip + 8);
    ip[8] = static_cast<uint8_t>(ip[8] - 1);
    UpdateIpv4Checksum(ip, oldWord, LoadBe16(ip + 8));
    return ip[8];
}

bool
MarkCongestionExperienced(Frame& frame)
{
    uint8_t* ip = frame.data + kIpv4Offset;
    if (frame.length < kIpv4Offset + kIpv4HeaderBytes ||
        LoadBe16(frame.data + 12) != kEtherTypeIpv4 || (ip[1] & 3) == kEcnNotEct ||
        (ip[1] & 3) == kEcnCe)
    {
        return false;
    }
    uint16_t oldWord = LoadBe16(ip);
    ip[1] = static_cast<uint8_t>(ip[1] | kEcnCe);
    UpdateIpv4Checksum(ip, oldWord, LoadBe16(ip));
    return true;
}

uint32_t
FlowHash(const Frame& frame, uint32_t salt)
{
    const uint8_t* d = frame.data;
    uint64_t a = (uint64_t(LoadBe32(d + kIpv4SrcOffset)) << 32) | LoadBe32(d + kIpv4DstOffset);
    uint64_t b = (uint64_t(d[kIpv4Offset + 9]) << 32) | LoadBe32(d + kUdpOffset);
    return static_cast<uint32_t>(Mix64(a ^ Mix64(b ^ salt)));
}

} // namespace incsim
