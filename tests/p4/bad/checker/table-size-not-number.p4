// expect: table-size-not-number.p4:8:16: error: a table's size must be a constant number, not true
#include <core.p4>

control C() {
    action a() {}
    table t {
        actions = { a; }
        size = true;
    }
    apply { t.apply(); }
}
