// expect: assign-wider.p4:17:33: error: cannot assign bit<32> to bit<8> without a cast
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

control C(inout headers_t hdr) {
    apply {
        hdr.ipv4.ttl = hdr.ipv4.dst_addr;
    }
}
