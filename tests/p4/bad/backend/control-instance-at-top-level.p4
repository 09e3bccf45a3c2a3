// expect: control-instance-at-top-level.p4:16:97: error: applying 'tally', declared outside the block that applies it, is outside incsim's P4 subset (controls and parsers are inlined into the block that instantiates them)
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t { bit<8> a; }

// A control instantiated inside a block is inlined there; one instantiated at the top level
// belongs to no block.
control Count(inout meta_t meta) { apply { meta.a = meta.a + 1; } }
Count() tally;

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { tally.apply(meta); } }
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
