// Packet replication beyond multicast: an I2E clone (the copy carries the ORIGINAL bytes and
// instance_type 1), an I2E clone preserving a @field_list, an E2E clone (a copy of the packet
// leaving egress, instance_type 2), resubmit preserving @field_list(1) (kept survives, lost
// does not) and recirculation driven by a counter in the packet (exactly `count` extra passes).
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header c_t {
    bit<8> op;          // 1 I2E clone, 2 E2E clone, 3 resubmit, 4 recirculate,
                        // 5 I2E clone preserving field list 1, 0 drop, other: forward to port 1
    bit<8> count;       // op 4: recirculations still to do (egress decrements it)
    bit<8> mark;        // ingress writes AA (op 1, 5) or 99 (op 3, first pass)
    bit<8> passes;      // ingress adds 1 on every pass
    bit<8> ig_itype;    // ingress: instance_type
    bit<8> eg_itype;    // egress: instance_type
    bit<8> eport;       // egress: egress_port
    bit<8> egc;         // egress adds 1 on every pass
    bit<8> kept;        // egress: meta.kept
    bit<8> lost;        // egress: meta.lost
    bit<8> rc;          // egress: meta.rc
}   // 11 bytes

struct headers_t {
    c_t c;
}

struct metadata_t {
    @field_list(1)
    bit<8> kept;        // preserved by resubmit and clone with field list 1
    bit<8> lost;        // in no field list: reset to 0 by resubmit, recirculation and cloning
    @field_list(2)
    bit<8> rc;          // preserved by recirculation (field list 2): counts ingress passes
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.c);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.c.passes = hdr.c.passes + 1;
        hdr.c.ig_itype = (bit<8>)standard_metadata.instance_type;
        standard_metadata.egress_spec = 1;
        if (hdr.c.op == 0) {
            mark_to_drop(standard_metadata);
        } else if (hdr.c.op == 1) {
            hdr.c.mark = 0xAA;
            clone(CloneType.I2E, 5);
        } else if (hdr.c.op == 5) {
            meta.kept = 0x33;
            meta.lost = 0x44;
            hdr.c.mark = 0xAA;
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        } else if (hdr.c.op == 3) {
            if (standard_metadata.instance_type == 0) {
                meta.kept = 0x11;
                meta.lost = 0x22;
                hdr.c.mark = 0x99;
                resubmit_preserving_field_list(1);
            } else {
                standard_metadata.egress_spec = 2;
            }
        } else if (hdr.c.op == 4) {
            meta.rc = meta.rc + 1;
            meta.lost = meta.lost + 1;
            standard_metadata.egress_spec = 3;
        }
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.c.eg_itype = (bit<8>)standard_metadata.instance_type;
        hdr.c.eport = (bit<8>)standard_metadata.egress_port;
        hdr.c.egc = hdr.c.egc + 1;
        hdr.c.kept = meta.kept;
        hdr.c.lost = meta.lost;
        hdr.c.rc = meta.rc;
        if (hdr.c.op == 2 && standard_metadata.instance_type == 0) {
            clone(CloneType.E2E, 6);
        }
        if (hdr.c.op == 4 && hdr.c.count != 0) {
            hdr.c.count = hdr.c.count - 1;
            recirculate_preserving_field_list(2);
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.c);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
