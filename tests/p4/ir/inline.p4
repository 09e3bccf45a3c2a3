// The mid-end's inlining (p4/compiler/midend-inline.h), golden dump inline.ir
// (tests/unit/test-p4-ir.cc): a function with an early return, an out parameter and a call
// inside another call's argument; a control instantiated twice inside another, with a
// constructor argument, its own action and table (control-plane names I.up.bump, I.down.t);
// a sub-parser called from a state, its accept going on with the rest of that state.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header eth_t { bit<16> type; bit<8> tag; bit<8> value; }
header two_t { bit<8> a; }
struct headers_t { eth_t eth; two_t two; }
struct meta_t { bit<8> count; }

bit<8> clamp(in bit<8> x, in bit<8> limit, out bool clamped) {
    clamped = false;
    if (x > limit) {
        clamped = true;
        return limit;
    }
    return x;
}

parser Two(packet_in pkt, inout headers_t hdr) {
    state start {
        pkt.extract(hdr.two);
        transition select(hdr.two.a) {
            0: reject;
            default: accept;
        }
    }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Two() two;
    state start {
        pkt.extract(hdr.eth);
        two.apply(pkt, hdr);
        meta.count = hdr.two.a;
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) { apply { } }

control Counter(inout bit<8> value)(bit<8> step) {
    action bump() { value = value + step; }
    table t {
        key = { value: exact; }
        actions = { bump; NoAction; }
        default_action = bump();
    }
    apply {
        if (value == 0) {
            return;
        }
        t.apply();
    }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Counter(1) up;
    Counter(8w2) down;
    apply {
        bool clamped;
        hdr.eth.value = clamp(clamp(hdr.eth.value, 100, clamped) + 1, 50, clamped);
        up.apply(meta.count);
        down.apply(hdr.eth.tag);
        if (clamped) {
            mark_to_drop(sm);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.two); } }

V1Switch(P(), V(), I(), E(), C(), D()) main;
