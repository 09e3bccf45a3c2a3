// expect: value-set.p4:11:27: error: value_set 'tunnel_types' is not supported by incsim's back end yet
#include <core.p4>
#include <v1model.p4>

// The checker accepts a value_set as a select label; the back end cannot generate it yet.
header ethernet_t { bit<48> dst; bit<48> src; bit<16> ether_type; }
struct headers_t { ethernet_t ethernet; }
struct meta_t {}

parser P(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tunnel_types;
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            tunnel_types: accept;
            default: reject;
        }
    }
}
control V(inout headers_t hdr, inout meta_t meta) { apply {} }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t hdr, inout meta_t meta) { apply {} }
control D(packet_out p, in headers_t hdr) { apply { p.emit(hdr.ethernet); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
