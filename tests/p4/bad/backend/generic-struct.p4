// expect: generic-struct.p4:6:8: error: generic struct 'Pair' is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

// The checker accepts generic structs; the back end cannot generate them yet.
struct Pair<T> {
    T first;
    T second;
}

struct headers_t {}
struct meta_t { Pair<bit<8>> hops; }

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { meta.hops.first = meta.hops.second; }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
