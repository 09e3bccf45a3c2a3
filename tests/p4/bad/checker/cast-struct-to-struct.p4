// expect: cast-struct-to-struct.p4:7:17: error: cannot cast v to s: only an initializer list is cast to a struct
#include <core.p4>

struct s { bit<8> a; }

control C(inout s v) {
    apply { v = (s)v; }
}
