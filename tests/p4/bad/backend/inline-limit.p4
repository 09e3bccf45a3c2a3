// expect: inline-limit.p4:11:33: error: inlining stops here: the program would inline more than 10000 calls and instances (each level of calls that calls the next more than once multiplies them)
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t { bit<8> a; }

// Each function calls the one before twice: inlining f14 would copy f0 2^14 times.
bit<8> f0(in bit<8> x) { return x + 1; }
bit<8> f1(in bit<8> x) { return f0(x) + f0(x); }
bit<8> f2(in bit<8> x) { return f1(x) + f1(x); }
bit<8> f3(in bit<8> x) { return f2(x) + f2(x); }
bit<8> f4(in bit<8> x) { return f3(x) + f3(x); }
bit<8> f5(in bit<8> x) { return f4(x) + f4(x); }
bit<8> f6(in bit<8> x) { return f5(x) + f5(x); }
bit<8> f7(in bit<8> x) { return f6(x) + f6(x); }
bit<8> f8(in bit<8> x) { return f7(x) + f7(x); }
bit<8> f9(in bit<8> x) { return f8(x) + f8(x); }
bit<8> f10(in bit<8> x) { return f9(x) + f9(x); }
bit<8> f11(in bit<8> x) { return f10(x) + f10(x); }
bit<8> f12(in bit<8> x) { return f11(x) + f11(x); }
bit<8> f13(in bit<8> x) { return f12(x) + f12(x); }
bit<8> f14(in bit<8> x) { return f13(x) + f13(x); }

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { meta.a = f14(meta.a); }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
