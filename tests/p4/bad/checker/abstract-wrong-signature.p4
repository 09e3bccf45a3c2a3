// expect: abstract-wrong-signature.p4:11:17: error: 'f' does not have the signature of the abstract method it implements
#include <core.p4>

extern Virtual {
    Virtual();
    abstract bit<16> f(in bit<16> ix);
}

control C(inout bit<16> p) {
    Virtual() v = {
        bit<16> f(in bit<8> ix) {
            return 1;
        }
    };
    apply { p = v.f(p); }
}
