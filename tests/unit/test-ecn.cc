// ECN marking (RFC 3168) in the IPv4 header: a switch queue turns an ECN-capable frame into
// Congestion Experienced and keeps the header checksum valid; frames that are not
// ECN-capable, or already marked, stay as they are.

#include "sim/net/frame.h"
#include "sim/net/headers.h"

#include <catch2/catch.hpp>

using namespace incsim;

namespace
{
FramePtr
UdpFrameWithEcn(uint8_t ecn)
{
    FramePtr frame = FramePool::Instance().Allocate();
    UdpAddress address;
    address.srcHost = 1;
    address.dstHost = 2;
    address.srcPort = 7000;
    address.dstPort = 7000;
    address.dscp = 3;
    address.ecn = ecn;
    WriteUdpHeaders(*frame, address, 100, 0);
    return frame;
}
} // namespace

TEST_CASE("A switch marks only ECN-capable frames CE, keeping the IPv4 checksum valid", "[ecn]")
{
    FramePtr capable = UdpFrameWithEcn(kEcnEct0);
    CHECK(ParseUdp(*capable).ecn == kEcnEct0);
    CHECK(MarkCongestionExperienced(*capable));
    CHECK(ParseUdp(*capable).ecn == kEcnCe);
    CHECK(capable->data[kIpv4TosOffset] >> 2 == 3); // the DSCP is kept
    const uint8_t* checksum = capable->data + kIpv4ChecksumOffset;
    CHECK(Ipv4HeaderChecksum(capable->data + kIpv4Offset) == (checksum[0] << 8 | checksum[1]));
    CHECK_FALSE(MarkCongestionExperienced(*capable)); // already CE

    FramePtr notCapable = UdpFrameWithEcn(kEcnNotEct);
    CHECK_FALSE(MarkCongestionExperienced(*notCapable));
    CHECK(ParseUdp(*notCapable).ecn == kEcnNotEct);
}
