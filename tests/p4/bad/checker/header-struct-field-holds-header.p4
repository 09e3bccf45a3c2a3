// expect: header-struct-field-holds-header.p4:13:12: error: field 's' of header 'outer_t' cannot have type wrap_t
#include <core.p4>

header inner_t {
    bit<8> a;
}

struct wrap_t {
    inner_t h;
}

header outer_t {
    wrap_t s;
}
