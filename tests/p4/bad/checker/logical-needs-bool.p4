// expect: logical-needs-bool.p4:17:44: error: '&&' needs bool operands, not bit<8>
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
        if (hdr.ipv4.isValid() && hdr.ipv4.ttl) {
            hdr.ipv4.ttl = 0;
        }
    }
}
