// expect: lookahead-varbit.p4:11:15: error: lookahead<options_t> cannot look at a varbit field
#include <core.p4>

header options_t {
    bit<8> length;
    varbit<32> data;
}

parser P(packet_in p, out options_t o) {
    state start {
        o = p.lookahead<options_t>();
        transition accept;
    }
}
