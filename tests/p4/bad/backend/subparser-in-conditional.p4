// expect: subparser-in-conditional.p4:20:17: error: a call of parser 'sub' is outside incsim's P4 subset here: sub-parsers are inlined where a state calls them outside a conditional statement
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
struct headers_t { h_t h; h_t g; }
struct meta_t {}

// A sub-parser call splits its state in two around the callee's states: it must be a
// statement of the state itself, not inside an if.
parser Sub(packet_in p, inout headers_t hdr) {
    state start { p.extract(hdr.g); transition accept; }
}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub() sub;
    state start {
        p.extract(hdr.h);
        if (hdr.h.f == 1) {
            sub.apply(p, hdr);
        }
        transition accept;
    }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
