// expect: new-type-needs-cast.p4:11:15: error: cannot assign bit<32> to N32 without a cast
#include <core.p4>

typedef bit<32> B32;
type bit<32> N32;

control C(out B32 x) {
    apply {
        B32 b = 0;
        N32 n = (N32)b;
        n = b + b;
        x = (B32)n;
    }
}
