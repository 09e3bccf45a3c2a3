// expect: switch-label-not-in-table.p4:26:13: error: 'forward' is not an action of table 't'
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
    action forward() {
    }
    table t {
        key = { hdr.ipv4.dst_addr: exact; }
        actions = { drop; }
    }
    apply {
        switch (t.apply().action_run) {
            drop: { }
            forward: { }
        }
    }
}
