// expect: slice-negative-bound.p4:6:20: error: the bounds of a slice cannot be negative, not -1
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = x[7:-2 + 1][3:0] ++ 4w0;
    }
}
