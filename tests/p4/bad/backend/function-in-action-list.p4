// expect: function-in-action-list.p4:22:25: error: a call of function 'twice' is outside incsim's P4 subset here: functions with a body are inlined, and only calls inside statements can be
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t { bit<8> a; bit<8> b; }

// Functions are inlined where a statement calls them; a table's action list binds its
// arguments when the table is applied, which is no statement of the program.
bit<8> twice(in bit<8> x) {
    return x + x;
}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(in bit<8> v) { meta.a = v; }
    table t {
        key = { meta.b: exact; }
        actions = { set(twice(meta.b)); }
    }
    apply { t.apply(); }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
