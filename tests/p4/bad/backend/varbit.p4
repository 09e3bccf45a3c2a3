// expect: varbit.p4:9:5: error: varbit is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

// The checker accepts varbit fields and extract(hdr, bits); the back end cannot generate them
// yet.
header options_t {
    bit<8> length;
    varbit<320> data;
}

struct headers_t { options_t options; }
struct meta_t {}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        p.extract(hdr.options, (bit<32>)p.lookahead<bit<8>>() * 8);
        transition accept;
    }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply { p.emit(hdr.options); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
