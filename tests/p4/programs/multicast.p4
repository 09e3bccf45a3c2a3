// Multicast: an ingress table picks a multicast group (standard_metadata.mcast_grp), a unicast
// port or a drop from the packet's tag; egress writes egress_rid, egress_port and instance_type
// into the packet so every copy shows which replica it is. Egress drops (mark_to_drop) every
// copy leaving by port 7.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header mc_t {
    bit<8>  tag;    // in: the route table's key
    bit<16> rid;    // out: egress_rid
    bit<16> port;   // out: egress_port
    bit<8>  itype;  // out: instance_type (5 for a multicast copy)
}   // 6 bytes

struct headers_t {
    mc_t mc;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.mc);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action set_mcast(bit<16> grp) {
        standard_metadata.mcast_grp = grp;
    }

    action set_port(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table route {
        key = {
            hdr.mc.tag: exact;
        }
        actions = {
            set_mcast;
            set_port;
            drop;
        }
        default_action = drop();
        size = 16;
    }

    apply {
        route.apply();
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.mc.rid = standard_metadata.egress_rid;
        hdr.mc.port = (bit<16>)standard_metadata.egress_port;
        hdr.mc.itype = (bit<8>)standard_metadata.instance_type;
        if (standard_metadata.egress_port == 7) {
            mark_to_drop(standard_metadata);
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.mc);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
