// expect: default-action-not-listed.p4:20:26: error: default action 'drop' is not in the table's actions list
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
    table t {
        key = { hdr.ipv4.dst_addr: exact; }
        actions = { NoAction; }
        default_action = drop();
    }
    apply {
        t.apply();
    }
}
