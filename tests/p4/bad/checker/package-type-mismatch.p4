// expect: package-type-mismatch.p4:29:54: error: parameter 'meta' of 'MyIngress' has type other_t, expected meta_t
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<8> ttl;
    bit<16> total_len;
    bit<32> dst_addr;
}

struct headers_t {
    ipv4_t ipv4;
}
struct meta_t {
    bit<8> x;
}
struct other_t {
    bit<8> y;
}
parser MyParser(packet_in packet, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition accept;
    }
}
control MyVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MyIngress(inout headers_t hdr, inout other_t meta, inout standard_metadata_t sm) {
    apply { }
}
control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}
control MyCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MyDeparser(packet_out packet, in headers_t hdr) {
    apply { }
}
V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
