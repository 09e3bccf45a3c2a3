// expect: missing-semicolon.p4:6:15: error: expected ';' after the field declaration
#include <core.p4>

header ipv4_t {
    bit<4> version;
    bit<4> ihl
    bit<8> diffserv;
}
