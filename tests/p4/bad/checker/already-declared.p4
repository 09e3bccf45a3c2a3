// expect: already-declared.p4:17:12: error: 'drop' is already declared
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
    action drop() {
    }
    action drop() {
    }
    apply {
    }
}
