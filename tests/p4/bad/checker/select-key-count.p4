// expect: select-key-count.p4:18:14: error: expected 2 keys, got 3
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
parser P(packet_in packet, out headers_t hdr) {
    state start {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.ttl, hdr.ipv4.total_len) {
            (1, 2, 3): accept;
            default: reject;
        }
    }
}
