// expect: sub-parser-argument-type.p4:14:17: error: argument 'z' of 'D' has type tuple<bit<8>>, expected s
#include <core.p4>

struct s { bit<8> x; }

parser D(in s z) {
    state start { transition accept; }
}

parser E() {
    tuple<bit<8>> a = { 0 };
    D() d;
    state start {
        d.apply(a);
        transition accept;
    }
}
