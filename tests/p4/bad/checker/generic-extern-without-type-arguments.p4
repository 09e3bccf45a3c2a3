// expect: generic-extern-without-type-arguments.p4:9:15: error: 'b': extern 'Box' is generic, so its type arguments are needed here
#include <core.p4>

extern Box<T> {
    Box();
    T get();
}

control C(Box b) {
    apply {}
}
