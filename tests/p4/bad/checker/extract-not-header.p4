// expect: extract-not-header.p4:6:19: error: h: the argument of extract must be a header, not bit<32>
#include <core.p4>

parser P(packet_in p, out bit<32> h) {
    state start {
        p.extract(h);
        transition accept;
    }
}
