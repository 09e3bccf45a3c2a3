// expect: generic-struct-without-arguments.p4:9:17: error: 'Pair' is generic: name it with its type arguments (Pair<...>)
#include <core.p4>

struct Pair<T> {
    T first;
    T second;
}

control C(inout Pair p) {
    apply {}
}
