// expect: entries-without-key.p4:6:11: error: table 't' has no key, so it cannot have entries
#include <core.p4>

control C() {
    action a() {}
    table t {
        actions = { a; }
        const entries = {
            _ : a();
        }
    }
    apply { t.apply(); }
}
