// expect: action-run-outside-switch.p4:10:23: error: t.apply().action_run: 'action_run' is only allowed as the expression of a switch statement
#include <core.p4>

control C() {
    action a() {}
    table t {
        actions = { a; }
    }
    apply {
        if (t.apply().action_run == t.apply().action_run) {}
    }
}
