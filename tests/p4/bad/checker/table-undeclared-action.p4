// expect: table-undeclared-action.p4:20:13: error: 'forward' is not declared
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
    table t {
        key = { hdr.ipv4.dst_addr: lpm; }
        actions = {
            NoAction;
            forward;
        }
    }
    apply {
        t.apply();
    }
}
