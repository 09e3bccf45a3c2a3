// expect: header-union.p4:15:14: error: header_union 'ip_t' is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<8> ttl;
}

header ipv6_t {
    bit<8> hop_limit;
}

// The checker accepts a header_union; the back end cannot generate it yet (its headers share
// one validity: setting one valid invalidates the others).
header_union ip_t {
    ipv4_t v4;
    ipv6_t v6;
}

struct headers_t { ip_t ip; }
struct meta_t {}

parser P(packet_in p, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.ip.isValid() && hdr.ip.v4.isValid()) {
            hdr.ip.v4.ttl = hdr.ip.v4.ttl - 1;
        }
    }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply { p.emit(hdr.ip); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
