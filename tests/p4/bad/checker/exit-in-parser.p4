// expect: exit-in-parser.p4:17:9: error: 'exit' is not allowed in a parser
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
        exit;
        transition accept;
    }
}
