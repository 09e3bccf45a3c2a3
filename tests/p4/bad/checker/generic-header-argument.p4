// expect: generic-header-argument.p4:17:13: error: field 'f' of header 'box' cannot have type pair_t
#include <core.p4>

header inner_t {
    bit<8> a;
}

struct pair_t {
    bit<8> x;
    inner_t[2] stack;
}

header box<T> {
    T f;
}

typedef box<pair_t> bad_t;
