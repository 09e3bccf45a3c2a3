// expect: action-argument-applies-table.p4:11:37: error: first.apply().hit: an action's argument cannot apply a table
#include <core.p4>

control C(inout bit<8> x) {
    action a(in bool hit) {}
    action b() {}
    table first {
        actions = { b; }
    }
    table second {
        actions = { a(first.apply().hit); }
    }
    apply { second.apply(); }
}
