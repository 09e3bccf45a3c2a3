// expect: header-union.p4:13:1: error: header_union is not supported by incsim
#include <core.p4>

header ipv4_t {
    bit<8> ttl;
}

header ipv6_t {
    bit<8> hop_limit;
}

// A header_union would need a runtime validity rule incsim does not model.
header_union ip_t {
    ipv4_t v4;
    ipv6_t v6;
}
