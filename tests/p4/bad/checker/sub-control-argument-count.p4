// expect: sub-control-argument-count.p4:10:19: error: 'apply' of 'Inner' expects 1 argument, got 2
#include <core.p4>

control Inner(inout bit<8> x) {
    apply { x = x + 1; }
}

control Outer(inout bit<8> x) {
    Inner() inner;
    apply { inner.apply(x, x); }
}
