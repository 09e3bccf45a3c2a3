// A table apply() inside &&, || and ?: runs only when C++ would evaluate that operand: the
// right operand of && and || only when the left one does not decide, a branch of ?: only when
// it is chosen. Each table's every action counts its applies (n1, n2), so the counts show which
// applies ran; an action that exits inside a condition ends ingress before the statement
// completes (r keeps its input byte, x is never written).
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header e_t {
    bit<8> op;  // which statement runs: 1 &&, 2 ||, 3 || with a bool variable, 4 nested ?:
    bit<8> k;   // the key of both tables: t1 hits 1 and 3; t2 hits 1, 2 and 4 (4 exits)
    bit<8> n1;  // t1's applies
    bit<8> n2;  // t2's applies
    bit<8> r;   // the statement's result
    bit<8> x;   // 0xEE at the end of ingress
}

struct headers_t {
    e_t e;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.e);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action bump1() {
        hdr.e.n1 = hdr.e.n1 + 1;
    }

    action bump2() {
        hdr.e.n2 = hdr.e.n2 + 1;
    }

    action bump2_exit() {
        hdr.e.n2 = hdr.e.n2 + 1;
        exit;
    }

    table t1 {
        key = {
            hdr.e.k: exact;
        }
        actions = {
            bump1;
        }
        const entries = {
            1: bump1();
            3: bump1();
        }
        default_action = bump1();
    }

    table t2 {
        key = {
            hdr.e.k: exact;
        }
        actions = {
            bump2;
            bump2_exit;
        }
        const entries = {
            1: bump2();
            2: bump2();
            4: bump2_exit();
        }
        default_action = bump2();
    }

    apply {
        standard_metadata.egress_spec = 1;
        if (hdr.e.op == 1) {
            if (t1.apply().hit && t2.apply().hit) {
                hdr.e.r = 1;
            } else {
                hdr.e.r = 2;
            }
        } else if (hdr.e.op == 2) {
            hdr.e.r = t1.apply().miss || t2.apply().hit ? 8w3 : 8w4;
        } else if (hdr.e.op == 3) {
            bool b = hdr.e.k == 0 || t2.apply().hit;
            hdr.e.r = b ? 8w5 : 8w6;
        } else if (hdr.e.op == 4) {
            hdr.e.r = hdr.e.k[0:0] == 1 ? (t1.apply().hit ? 8w7 : 8w8)
                                        : (t2.apply().hit ? 8w9 : 8w10);
        }
        hdr.e.x = 0xEE;
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.e);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
