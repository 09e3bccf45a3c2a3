// expect: abstract-method-instance.p4:20:12: error: instance 'hook' (an initializer that implements abstract methods) is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

// The checker accepts extern instances that implement abstract methods; the back end cannot
// generate them yet.
extern Hook {
    Hook();
    abstract bit<8> adjust(in bit<8> v);
}

struct headers_t {}
struct meta_t { bit<8> hops; }

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Hook() hook = {
        bit<8> adjust(in bit<8> v) {
            return v + 1;
        }
    };
    apply { meta.hops = hook.adjust(meta.hops); }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
