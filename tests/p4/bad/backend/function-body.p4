// expect: function-body.p4:9:8: error: function 'max' (a function with a body) is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t { bit<8> a; bit<8> b; }

// The checker accepts functions; the back end cannot generate them yet.
bit<8> max(in bit<8> a, in bit<8> b) {
    return a > b ? a : b;
}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { meta.a = max(meta.a, meta.b); }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
