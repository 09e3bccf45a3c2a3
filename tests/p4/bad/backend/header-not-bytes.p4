// expect: header-not-bytes.p4:9:8: error: header 'odd_t' is 12 bits long; a header must be a whole number of bytes
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}
header odd_t {
    bit<12> a;
}
struct headers_t {
    h_t h;
    odd_t odd;
}

struct meta_t {
    bit<32> x;
}

parser MyParser(packet_in packet, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control MyVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {

    apply {

    }
}

control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control MyCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply { packet.emit(hdr.h); }
}

V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
