// expect: varbit-unaligned.p4:9:17: error: varbit field 'data' that does not start on a byte boundary is outside incsim's P4 subset
#include <core.p4>
#include <v1model.p4>

// A varbit is read and written as whole bytes: one after 4 bits of fixed fields is outside
// the subset (BMv2 takes it).
header options_t {
    bit<4> kind;
    varbit<320> data;
    bit<4> pad;
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
