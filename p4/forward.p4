/*
 * forward.p4: the default program of every incsim switch. IPv4 forwarding with ECMP:
 * the destination address picks an ECMP group by longest prefix, the group gives its member
 * count, a member index is chosen (per-flow: crc32 of the 5-tuple times a per-switch odd salt,
 * or per-packet round robin "spray"), and the (group, index) member gives the output port.
 * The TTL is decremented (packets arriving with TTL <= 1 are dropped), the IPv4 header
 * checksum is recomputed, and the queue priority is taken from the DSCP (diffserv[4:2]).
 * Non-IPv4 frames are dropped.
 *
 * Control-plane contract (the simulator installs these by name; keep the names):
 *   MyIngress.ipv4_route   key hdr.ipv4.dstAddr (lpm): one /32 entry per destination host,
 *                          action set_ecmp_group(group); miss -> drop_no_route.
 *   MyIngress.ecmp_group   key meta.ecmp_group (exact): one entry per distinct set of live
 *                          output ports, action set_group_size(count); a group whose ports are
 *                          all down is deleted, so a miss -> drop_no_route.
 *   MyIngress.ecmp_member  keys meta.ecmp_group, meta.ecmp_index (exact): rows with index
 *                          0 .. count-1 of each group, action set_port(port).
 *   MyIngress.ecmp_mode    keyless; its default action is set once per switch:
 *                          flow_hash(salt) (the default, salt 0) or spray().
 *   MyIngress.spray_next   register<bit<32>>(1): spray mode's packet counter (cell 0). It
 *                          only advances for packets routed to a group of 2 or more members.
 *
 * Drop reasons: when the program drops a packet, the simulator reads meta.drop_reason:
 * 0 = dropped by the program (here: not IPv4), DROP_NO_ROUTE, DROP_TTL_EXPIRED.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IPPROTO_UDP = 17;

const bit<8> DROP_NO_ROUTE = 1;
const bit<8> DROP_TTL_EXPIRED = 2;

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

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
}

struct metadata_t {
    bit<16> ecmp_group;     // from ipv4_route
    bit<16> ecmp_count;     // members in the group, from ecmp_group
    bit<16> ecmp_index;     // chosen member, 0 .. ecmp_count-1
    bit<32> ecmp_salt;      // flow mode's per-switch hash salt, from ecmp_mode
    bit<8>  drop_reason;    // 0, DROP_NO_ROUTE or DROP_TTL_EXPIRED (read by the simulator)
    bit<1>  ecmp_spray;     // 1: per-packet spraying, 0: per-flow hashing
    bit<16> l4_src;         // UDP ports for the flow hash (0 when not UDP)
    bit<16> l4_dst;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IPPROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) spray_next;

    action drop_no_route() {
        meta.drop_reason = DROP_NO_ROUTE;
        mark_to_drop(standard_metadata);
    }

    action set_ecmp_group(bit<16> group) {
        meta.ecmp_group = group;
    }

    action set_group_size(bit<16> count) {
        meta.ecmp_count = count;
    }

    action flow_hash(bit<32> salt) {
        meta.ecmp_salt = salt;
        meta.ecmp_spray = 0;
    }

    action spray() {
        meta.ecmp_spray = 1;
    }

    action set_port(PortId_t port) {
        standard_metadata.egress_spec = port;
    }

    table ipv4_route {
        key = {
            hdr.ipv4.dstAddr: lpm;
        }
        actions = {
            set_ecmp_group;
            drop_no_route;
        }
        default_action = drop_no_route();
        size = 65536;
    }

    table ecmp_group {
        key = {
            meta.ecmp_group: exact;
        }
        actions = {
            set_group_size;
            drop_no_route;
        }
        default_action = drop_no_route();
    }

    table ecmp_mode {
        actions = {
            flow_hash;
            spray;
        }
        default_action = flow_hash(0);
    }

    table ecmp_member {
        key = {
            meta.ecmp_group: exact;
            meta.ecmp_index: exact;
        }
        actions = {
            set_port;
            drop_no_route;
        }
        default_action = drop_no_route();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);    // drop_reason stays 0
            return;
        }
        if (hdr.ipv4.ttl <= 1) {
            meta.drop_reason = DROP_TTL_EXPIRED;
            mark_to_drop(standard_metadata);
            return;
        }
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        standard_metadata.priority = hdr.ipv4.diffserv[4:2];

        switch (ipv4_route.apply().action_run) {
            set_ecmp_group: {
                switch (ecmp_group.apply().action_run) {
                    set_group_size: {
                        meta.ecmp_index = 0;
                        if (meta.ecmp_count > 1) {
                            ecmp_mode.apply();
                            if (meta.ecmp_spray == 1) {
                                bit<32> sprayed;
                                spray_next.read(sprayed, 0);
                                hash(meta.ecmp_index, HashAlgorithm.identity, 16w0,
                                     { sprayed }, meta.ecmp_count);
                                spray_next.write(0, sprayed + 1);
                            } else {
                                if (hdr.udp.isValid()) {
                                    meta.l4_src = hdr.udp.srcPort;
                                    meta.l4_dst = hdr.udp.dstPort;
                                } else {
                                    meta.l4_src = 0;
                                    meta.l4_dst = 0;
                                }
                                // crc32 is linear: a salt mixed into its input or output
                                // shifts every switch's choice in step, so all tiers pick
                                // the same member index and paths polarise. Multiplying by
                                // the (odd) salt and keeping the high bits decorrelates the
                                // switches. Max 0xffffffff: BMv2 reduces modulo max.
                                bit<32> flow;
                                hash(flow, HashAlgorithm.crc32, 32w0,
                                     { hdr.ipv4.srcAddr,
                                       hdr.ipv4.dstAddr,
                                       hdr.ipv4.protocol,
                                       meta.l4_src,
                                       meta.l4_dst },
                                     32w0xffffffff);
                                bit<32> mixed = flow * (meta.ecmp_salt | 1);
                                hash(meta.ecmp_index, HashAlgorithm.identity, 16w0,
                                     { mixed[31:16] }, meta.ecmp_count);
                            }
                        }
                        ecmp_member.apply();
                    }
                }
            }
        }
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version,
              hdr.ipv4.ihl,
              hdr.ipv4.diffserv,
              hdr.ipv4.totalLen,
              hdr.ipv4.identification,
              hdr.ipv4.flags,
              hdr.ipv4.fragOffset,
              hdr.ipv4.ttl,
              hdr.ipv4.protocol,
              hdr.ipv4.srcAddr,
              hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
