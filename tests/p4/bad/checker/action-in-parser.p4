// expect: action-in-parser.p4:20:9: error: an action cannot be called from a parser
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
action bump(inout bit<8> ttl) {
    ttl = ttl + 1;
}
parser P(packet_in packet, out headers_t hdr) {
    state start {
        packet.extract(hdr.ipv4);
        bump(hdr.ipv4.ttl);
        transition accept;
    }
}
