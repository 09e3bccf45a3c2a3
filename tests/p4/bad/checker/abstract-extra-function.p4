// expect: abstract-extra-function.p4:14:17: error: 'g' implements no abstract method of extern 'Virtual'
#include <core.p4>

extern Virtual {
    Virtual();
    abstract bit<16> f(in bit<16> ix);
}

control C(inout bit<16> p) {
    Virtual() v = {
        bit<16> f(in bit<16> ix) {
            return ix;
        }
        bit<16> g() {
            return 0;
        }
    };
    apply { p = v.f(p); }
}
