// expect: abstract-not-implemented.p4:11:15: error: 'v' does not implement the abstract method 'g' of extern 'Virtual'
#include <core.p4>

extern Virtual {
    Virtual();
    abstract bit<16> f(in bit<16> ix);
    abstract bit<16> g();
}

control C(inout bit<16> p) {
    Virtual() v = {
        bit<16> f(in bit<16> ix) {
            return ix + 1;
        }
    };
    apply { p = v.f(p); }
}
