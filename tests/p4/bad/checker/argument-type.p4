// expect: argument-type.p4:16:27: error: argument 'length' of 'truncate' has type bit<8>, expected bit<32>
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
control C(inout headers_t hdr, inout standard_metadata_t sm) {
    apply {
        truncate(hdr.ipv4.ttl);
    }
}
