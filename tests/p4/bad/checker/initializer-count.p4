// expect: initializer-count.p4:16:20: error: header 'ipv4_t' has 3 fields, got 2 values
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
        hdr.ipv4 = { 8w64, 16w20 };
    }
}
