// A small program for the mid-end IR's golden dump (small.ir, tests/unit/test-p4-ir.cc):
// constants built on constants, a register, actions (one that exits), a table with a bound
// argument, const entries and a default, a parser whose select has two selectors, a tuple
// keyset, a mask and a default, and a state without a transition.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const bit<16> TYPE_BASE = 0x0800;
const bit<16> TYPE_TWO = TYPE_BASE + 2;
const bit<8> SHIFTED = (bit<8>)(TYPE_TWO >> 8) | 8w1;

header eth_t { bit<16> type; bit<8> tag; bit<8> value; }
header two_t { bit<8> a; }
struct headers_t { eth_t eth; two_t two; }
struct meta_t { bit<8> count; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type, hdr.eth.tag) {
            (TYPE_TWO, 8w1 &&& 8w0x0f): two;
            (TYPE_BASE, _): accept;
            default: reject;
        }
    }
    state two {
        pkt.extract(hdr.two);
        transition accept;
    }
    state orphan {
        pkt.extract(hdr.two);
    }
}

control V(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    register<bit<8>>(4) seen;

    action set_port(bit<9> port) { sm.egress_spec = port; }
    action copy(inout bit<8> into, bit<8> add) { into = hdr.eth.value + add; }
    action stop() { mark_to_drop(sm); exit; }

    table route {
        key = { hdr.eth.type: exact; hdr.eth.tag: ternary; }
        actions = { set_port; copy(meta.count); stop; }
        const entries = {
            (TYPE_TWO, 8w1 &&& 8w0xff): set_port(SHIFTED ++ 1w0);
        }
        default_action = stop();
        size = 16;
    }

    apply {
        bit<8> previous;
        seen.read(previous, 32w0);
        if (hdr.two.isValid() && previous < SHIFTED) {
            route.apply();
        } else {
            seen.write(32w0, previous + 1);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.two); } }

V1Switch(P(), V(), I(), E(), C(), D()) main;
