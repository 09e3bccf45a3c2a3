// expect: size-query-arguments.p4:6:15: error: 'minSizeInBits' takes no type arguments and no arguments, got 0 type arguments and 1 argument
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        if (x.minSizeInBits(1) == 8) {}
    }
}
