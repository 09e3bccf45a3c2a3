// expect: action-call-as-value.p4:11:13: error: f(x): 'f' returns no value, so its call is not an expression
#include <core.p4>

action f(inout bit<8> t) {
    t = t - 1;
}

control C() {
    bit<8> x = 100;
    apply {
        if (f(x) == f(x)) {}
    }
}
