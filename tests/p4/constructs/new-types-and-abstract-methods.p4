// `type` declarations (new types, converted by casts) and extern instances whose initializer
// implements abstract methods (`this` names the instance). The checker accepts them; the back
// end does not generate them yet.
#include <core.p4>

typedef bit<32> B32;
type bit<32> N32;
type N32 Port_t;
type bool Flag_t;

extern Virtual {
    Virtual();
    void tick();
    abstract bit<16> f(in bit<16> ix);
}

control C(inout B32 x, inout bit<16> y) {
    Virtual() v = {
        bit<16> f(in bit<16> ix) {
            this.tick();
            return ix + 1;
        }
    };
    apply {
        N32 n = (N32)x;
        Port_t port = (Port_t)n;
        Flag_t flag = (Flag_t)true;
        if (n == (N32)7 && (bool)flag) {
            x = (B32)(N32)port;
        }
        y = v.f(y);
    }
}
