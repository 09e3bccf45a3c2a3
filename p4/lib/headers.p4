/*
 * The framing every incsim host sends: Ethernet II, IPv4 without options, UDP.
 * Included by the switch programs in p4/.
 */
#ifndef INCSIM_P4_LIB_HEADERS
#define INCSIM_P4_LIB_HEADERS

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IPPROTO_UDP = 17;

/* meta.drop_reason values the simulator reads when a program drops a packet. */
const bit<8> DROP_NO_ROUTE = 1;
const bit<8> DROP_TTL_EXPIRED = 2;
const bit<8> DROP_CONSUMED = 3;     // a hop-by-hop control frame the program absorbed

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> length;
    bit<16> checksum;
}

/* The IPv4 header checksum, for a program's compute-checksum control. */
#define IPV4_UPDATE_CHECKSUM(ipv4)                                              \
    update_checksum(                                                            \
        ipv4.isValid(),                                                         \
        { ipv4.version, ipv4.ihl, ipv4.diffserv, ipv4.totalLen,                 \
          ipv4.identification, ipv4.flags, ipv4.fragOffset, ipv4.ttl,           \
          ipv4.protocol, ipv4.srcAddr, ipv4.dstAddr },                          \
        ipv4.hdrChecksum,                                                       \
        HashAlgorithm.csum16)

#endif
