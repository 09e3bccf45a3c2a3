// expect: control-instantiates-itself.p4:10:12: error: 'Loop' instantiates itself (directly or through the blocks it instantiates): P4 has no recursion
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t { bit<8> a; }

// Inlining a control that instantiates itself would never end (it crashed the compiler).
control Loop(inout meta_t meta) {
    Loop() again;
    apply { again.apply(meta); }
}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Loop() loop;
    apply { loop.apply(meta); }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
