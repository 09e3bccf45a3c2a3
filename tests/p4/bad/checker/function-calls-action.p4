// expect: function-calls-action.p4:7:5: error: an action cannot be called from a function
#include <core.p4>

action a() {}

void f() {
    a();
}
