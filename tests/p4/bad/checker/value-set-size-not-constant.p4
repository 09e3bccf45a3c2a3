// expect: value-set-size-not-constant.p4:5:23: error: n: the size of value_set 'vs' must be a compile-time constant
#include <core.p4>

parser P(packet_in p, in bit<32> n) {
    value_set<bit<8>>(n) vs;
    state start {
        transition select(p.lookahead<bit<8>>()) {
            vs: accept;
            default: reject;
        }
    }
}
