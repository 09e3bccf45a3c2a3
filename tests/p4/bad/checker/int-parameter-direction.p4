// expect: int-parameter-direction.p4:5:23: error: parameter 'val' of type int must be directionless
#include <core.p4>

control C(inout bit<16> x) {
    action add(in int val) {
        x = x + val;
    }

    apply {
        add(1);
    }
}
