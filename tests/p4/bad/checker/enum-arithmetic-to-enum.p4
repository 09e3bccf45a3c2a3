// expect: enum-arithmetic-to-enum.p4:13:17: error: cannot assign bit<8> to E without a cast
#include <core.p4>

enum bit<8> E {
    a = 1,
    b = 2
}

control C(out bit<8> x) {
    apply {
        E e = E.a;
        x = e + 1;
        e = E.b + 1;
    }
}
