// expect: select-label-not-constant.p4:7:13: error: limit: a select label or table entry key must be a compile-time constant
#include <core.p4>

parser P(packet_in p, in bit<8> limit) {
    state start {
        transition select(8w0) {
            limit : accept;
            default : reject;
        }
    }
}
