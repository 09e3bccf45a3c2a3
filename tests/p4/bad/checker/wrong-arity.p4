// expect: wrong-arity.p4:21:9: error: 'set_nhop' expects 2 arguments, got 1
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

control C(inout headers_t hdr, inout standard_metadata_t sm) {
    action set_nhop(bit<32> nhop, bit<9> port) {
        hdr.ipv4.dst_addr = nhop;
        sm.egress_spec = port;
    }
    apply {
        set_nhop(32w1);
    }
}
