// expect: entry-bound-argument.p4:10:21: error: argument 2 does not match the actions list's 1
#include <core.p4>

control C(in bit<8> k) {
    action set(in bit<32> group) {}
    table t {
        key = { k : exact; }
        actions = { set(1); }
        const entries = {
            1 : set(2);
        }
    }
    apply { t.apply(); }
}
