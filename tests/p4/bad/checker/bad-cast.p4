// expect: bad-cast.p4:16:24: error: cannot cast ipv4_t to bit<8>
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
        hdr.ipv4.ttl = (bit<8>)hdr.ipv4;
    }
}
