// expect: slice-out-of-range.p4:17:42: error: slice [8:0] is out of range for bit<8>
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
        hdr.ipv4.total_len = hdr.ipv4.ttl[8:0] ++ 7w0;
    }
}
