// expect: new-type.p4:6:13: error: type 'Hops_t' (a 'type' declaration) is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

// The checker accepts `type` declarations; the back end cannot generate them yet.
type bit<8> Hops_t;

struct headers_t {}
struct meta_t { Hops_t hops; }

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { meta.hops = (Hops_t)((bit<8>)meta.hops + 1); }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
