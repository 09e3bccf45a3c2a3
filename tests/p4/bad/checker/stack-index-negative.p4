// expect: stack-index-negative.p4:11:12: error: index -1 is out of range for h_t[3]
#include <core.p4>

header h_t {
    bit<8> f;
}

control C(inout h_t[3] hs) {
    apply {
        hs[0].f = 1;
        hs[-1].f = 2;
    }
}
