// expect: varbit-arithmetic.p4:5:17: error: '+' needs numbers, not varbit<32>
#include <core.p4>

control C(inout varbit<32> v, inout bit<32> b) {
    apply { v = v + v; }
}
