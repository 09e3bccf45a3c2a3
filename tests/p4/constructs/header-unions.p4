// header_union: a struct of headers of which at most one is valid. The checker accepts it
// (fields must be headers; isValid() is its one method); the back end does not generate it yet.
#include <core.p4>

header ipv4_t { bit<8> ttl; }
header ipv6_t { bit<8> hop_limit; }

header_union ip_t {
    ipv4_t v4;
    ipv6_t v6;
}

struct headers_t {
    ip_t ip;
    ip_t[2] stack;
}

control C(inout headers_t hdr) {
    apply {
        if (hdr.ip.isValid() && hdr.ip.v6.isValid()) {
            hdr.ip.v6.hop_limit = hdr.ip.v6.hop_limit - 1;
            hdr.ip.v4.setInvalid();
        }
        hdr.stack[0].v4.setValid();
    }
}
