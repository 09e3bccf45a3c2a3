// expect: function-control-argument.p4:10:15: error: c: a control cannot be passed to function 'f'
#include <core.p4>

control C() { apply {} }

void f<T>(in T t) {}

control D() {
    C() c;
    apply { f(c); }
}
