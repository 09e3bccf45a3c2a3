// expect: value-set.p4:9:5: error: value_set is not supported by incsim
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> ether_type; }
struct headers_t { ethernet_t ethernet; }

parser MyParser(packet_in packet, out headers_t hdr, inout headers_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tunnel_types;
    state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}
