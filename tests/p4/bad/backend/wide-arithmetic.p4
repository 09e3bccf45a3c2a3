// expect: wide-arithmetic.p4:32:15: error: '+' on values wider than 64 bits is outside incsim's P4 subset
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    h_t h;
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
        bit<128> v = (bit<128>)hdr.h.a;
        v = v + 1;
        hdr.h.b = (bit<8>)v;
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
