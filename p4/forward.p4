/*
 * forward.p4: the default program of every incsim switch. IPv4 forwarding with ECMP as in
 * lib/ecmp.p4 (which documents the tables the simulator installs routes into), and the IPv4
 * header checksum recomputed. Non-IPv4 frames are dropped.
 *
 * Drop reasons: when the program drops a packet, the simulator reads meta.drop_reason:
 * 0 = dropped by the program (here: not IPv4), DROP_NO_ROUTE, DROP_TTL_EXPIRED.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
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
    ECMP_DECLARATIONS

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);    // drop_reason stays 0
            return;
        }
        ECMP_FORWARD()
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        IPV4_UPDATE_CHECKSUM(hdr.ipv4);
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
