// Corners the back end once got wrong: an action that exits by calling an action that exits
// (the control must stop too), a parser-local variable's initializer, constant folding of a
// signed shift, and an lpm const entry written with a mask.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const int<8> MINUS_EIGHT = -8;

header r_t {
    bit<8> op;
    bit<8> folded;      // (bit<8>)(MINUS_EIGHT >> 1): 0xFC (arithmetic shift)
    bit<8> parsed;      // the parser-local initializer: 0x2A
    bit<8> after_exit;  // written after the call that exits: must stay as sent
    bit<32> addr;       // lpm key
    bit<8> route;       // which lpm entry matched
}

struct headers_t {
    r_t r;
}

struct metadata_t {
    bit<8> unused;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    bit<8> initial = 0x2A;

    state start {
        packet.extract(hdr.r);
        hdr.r.parsed = initial;
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action stop() {
        exit;
    }

    action stop_via_call() {
        stop();
        hdr.r.after_exit = 0xBB;    // not reached
    }

    action set_route(bit<8> route) {
        hdr.r.route = route;
    }

    table routes {
        key = { hdr.r.addr: lpm; }
        actions = { set_route; NoAction; }
        const entries = {
            0x0A000000 &&& 0xFF000000: set_route(8);
            0x0A010000 &&& 0xFFFF0000: set_route(16);
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        hdr.r.folded = (bit<8>)(MINUS_EIGHT >> 1);
        routes.apply();
        if (hdr.r.op == 1) {
            stop_via_call();
            hdr.r.after_exit = 0xCC;    // not reached either
        }
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
        packet.emit(hdr.r);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
