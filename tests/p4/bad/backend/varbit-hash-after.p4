// expect: varbit-hash-after.p4:26:83: error: hashing or checksumming a value after a varbit is outside incsim's P4 subset
#include <core.p4>
#include <v1model.p4>

// A hash or checksum input packs its fields at offsets known when generating: a varbit, whose
// length is known only at run time, must be the input's last field.
header options_t {
    bit<8> length;
    varbit<320> data;
}

struct headers_t { options_t options; }
struct meta_t { bit<16> sum; }

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        p.extract(hdr.options, (bit<32>)p.lookahead<bit<8>>() * 8);
        transition accept;
    }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(true, { hdr.options.length, hdr.options.data, hdr.options.length },
                        meta.sum, HashAlgorithm.csum16);
    }
}
control D(packet_out p, in headers_t hdr) { apply { p.emit(hdr.options); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
