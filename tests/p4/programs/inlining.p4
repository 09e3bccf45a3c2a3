// The mid-end's inlining (p4/compiler/midend-inline.h) run on packets (inlining.stf): functions
// with a body (early return, out and inout parameters, an argument that aliases another, a
// call on the right of an operator and of ||), a control instantiated twice with a
// constructor argument and a table of its own each (I.up.t, I.down.t), a control nested two
// deep that exits (I.guard.inner.t), a sub-parser called from two states, and an assignment
// whose left side's index is a call, evaluated before the call on its right.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

// op kind a b c d e: seven bytes.
header h_t { bit<8> op; bit<8> kind; bit<8> a; bit<8> b; bit<8> c; bit<8> d; bit<8> e; }
header tail_t { bit<8> v; }
struct headers_t { h_t h; tail_t tail; tail_t[2] st; }
struct meta_t { bit<8> up; bit<8> down; }

bit<8> clamp(in bit<8> x, in bit<8> limit, out bool clamped) {
    clamped = false;
    if (x > limit) {
        clamped = true;
        return limit;
    }
    return x;
}

// Returns the value before the increment.
bit<8> bump(inout bit<8> x) {
    bit<8> before = x;
    x = x + 1;
    return before;
}

// I declares a variable STEP too: the inlined body still means this constant.
const bit<8> STEP = 3;
bit<8> add_step(in bit<8> x) {
    return x + STEP;
}

bit<1> low_bit(in bit<8> x) {
    return x[0:0];
}

bit<8> reset(inout bit<8> x) {
    x = 0;
    return 0xAB;
}

void both(inout bit<8> first, inout bit<8> second) {
    first = 0x11;
    second = 0x22;
}

parser Tail(packet_in pkt, inout headers_t hdr) {
    state start {
        pkt.extract(hdr.tail);
        transition select(hdr.tail.v) {
            0xEE: reject;
            default: accept;
        }
    }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Tail() tail;
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.kind) {
            1: with_tail;
            2: other_tail;
            default: accept;
        }
    }
    state with_tail {
        tail.apply(pkt, hdr);
        hdr.h.e = hdr.tail.v + 1;
        transition accept;
    }
    state other_tail {
        tail.apply(pkt, hdr);
        hdr.h.e = hdr.tail.v + 2;
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) { apply { } }

// Adds `step` to value on a table miss, sets it on a hit; nothing when value is 0.
control Step(inout bit<8> value)(bit<8> step) {
    action add() { value = value + step; }
    action set(bit<8> v) { value = v; }
    table t {
        key = { value: exact; }
        actions = { add; set; }
        default_action = add();
    }
    apply {
        if (value == 0) {
            return;
        }
        t.apply();
    }
}

// Sends to port 3 and exits when inner's table hits: the caller's statements after
// guard.apply() do not run, and what guard wrote before the exit stays (its arguments are used
// in place).
control Inner(inout headers_t hdr, inout standard_metadata_t sm) {
    action stop() { hdr.h.c = 0xEE; sm.egress_spec = 3; exit; }
    table t {
        key = { hdr.h.b: exact; }
        actions = { stop; NoAction; }
        default_action = NoAction();
    }
    apply { t.apply(); }
}

control Guard(inout headers_t hdr, inout standard_metadata_t sm) {
    Inner() inner;
    apply {
        hdr.h.d = 0x0D;
        inner.apply(hdr, sm);
    }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Step(1) up;
    Step(0x10) down;
    Guard() guard;
    bit<8> STEP = 0x40;
    apply {
        sm.egress_spec = 2;
        bool clamped;
        if (hdr.h.op == 1) {
            // a = min(min(a, 100) + 1, 50); d = 1 when the last clamp did.
            hdr.h.a = clamp(clamp(hdr.h.a, 100, clamped) + 1, 50, clamped);
            hdr.h.d = clamped ? 8w1 : 8w0;
        } else if (hdr.h.op == 2) {
            // Left to right: a + (a++), so a' = 2a (the copy-out lands before the sum is
            // assigned back). c counts the calls of bump that || lets run (when b != 0).
            hdr.h.a = hdr.h.a + bump(hdr.h.a);
            if (hdr.h.b == 0 || bump(hdr.h.c) == 0xFF) {
                hdr.h.d = 0xDD;
            }
        } else if (hdr.h.op == 3) {
            // Both arguments are b: copy-out in parameter order leaves the second's value.
            both(hdr.h.b, hdr.h.b);
        } else if (hdr.h.op == 4) {
            up.apply(hdr.h.a);
            down.apply(hdr.h.b);
        } else if (hdr.h.op == 5) {
            guard.apply(hdr, sm);
            hdr.h.e = 0x0E;
        } else if (hdr.h.op == 6) {
            hdr.h.a = add_step(hdr.h.a);
            hdr.h.b = STEP;
        } else if (hdr.h.op == 7) {
            // P4 evaluates the left side first: the index is b's low bit before reset clears b.
            hdr.st[0].setValid();
            hdr.st[0].v = 0;
            hdr.st[1].setValid();
            hdr.st[1].v = 0;
            hdr.st[low_bit(hdr.h.b)].v = reset(hdr.h.b);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.tail); pkt.emit(hdr.st); } }

V1Switch(P(), V(), I(), E(), C(), D()) main;
