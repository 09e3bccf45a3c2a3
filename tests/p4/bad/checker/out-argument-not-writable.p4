// expect: out-argument-not-writable.p4:17:19: error: the argument for out parameter 'result' of 'read' must be writable: it is not a variable
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
    register<bit<8>>(16) ttls;
    apply {
        ttls.read(8w0, 0);
    }
}
