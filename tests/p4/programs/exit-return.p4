// exit and return: exit in an action run by a table and in an action called from apply, exit
// and return directly in ingress's apply block, exit and return in egress. Each ends its
// control block at once: fields written after that point keep their input bytes, and the
// egress_spec set after it is never set. Egress and the deparser still run after ingress exits.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header e_t {
    bit<8> op;
    bit<8> a;   // ingress, before its exit/return point (by op)
    bit<8> b;   // ingress, at the end of apply
    bit<8> c;   // egress, before its exit/return point
    bit<8> d;   // egress, at the end of apply
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
    action mark_then_exit(bit<8> v) {
        hdr.e.a = v;
        exit;
    }

    action mark(bit<8> v) {
        hdr.e.a = v;
    }

    action direct_exit() {
        hdr.e.a = 0xA5;
        exit;
    }

    table t {
        key = {
            hdr.e.op: exact;
        }
        actions = {
            mark_then_exit;
            mark;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        if (t.apply().hit) {
            hdr.e.b = 0xB0;     // a hit that did not exit ends up here (then b = BB below)
        }
        if (hdr.e.op == 5) {
            direct_exit();
            hdr.e.b = 0xB5;     // never runs
        }
        if (hdr.e.op == 2) {
            hdr.e.a = 0xA2;
            exit;
        }
        if (hdr.e.op == 3) {
            hdr.e.a = 0xA3;
            return;
        }
        if (hdr.e.op == 8) {
            mark_to_drop(standard_metadata);
            exit;
        }
        hdr.e.b = hdr.e.b + 0x0B;
        standard_metadata.egress_spec = 2;
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.e.c = 0xCC;
        if (hdr.e.op == 6) {
            exit;
        }
        if (hdr.e.op == 7) {
            hdr.e.c = 0xC7;
            return;
        }
        hdr.e.d = 0xDD;
    }
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
