// expect: extract-length-without-varbit.p4:8:19: error: h: extract with a length needs a header with a varbit field, and header 'H' has none
#include <core.p4>

header H { bit<32> f; }

parser P(packet_in p, out H h) {
    state start {
        p.extract(h, 32);
        transition accept;
    }
}
