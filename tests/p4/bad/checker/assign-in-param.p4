// expect: assign-in-param.p4:16:18: error: cannot assign to hdr.ipv4.ttl: 'hdr' is an 'in' parameter
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
control C(in headers_t hdr) {
    apply {
        hdr.ipv4.ttl = 1;
    }
}
