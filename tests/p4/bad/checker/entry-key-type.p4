// expect: entry-key-type.p4:22:13: error: a key of type bit<16> cannot match bit<8>
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
    action set(bit<8> ttl) {
        hdr.ipv4.ttl = ttl;
    }
    table t {
        key = { hdr.ipv4.ttl: exact; }
        actions = { set; }
        const entries = {
            16w1: set(8w1);
        }
    }
    apply {
        t.apply();
    }
}
