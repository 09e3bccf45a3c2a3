// expect: push-front-not-constant.p4:8:22: error: n: the count of 'push_front' must be a compile-time constant
#include <core.p4>

header H { bit<32> u; }

control C(inout H[3] h, in bit<32> n) {
    apply {
        h.push_front(n);
    }
}
