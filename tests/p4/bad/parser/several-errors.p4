// expect: several-errors.p4:5:12: error: expected a field name, found ';'
#include <core.p4>

header a_t {
    bit<8> ;
    bit<8> ok;
}

typedef bit<8>;

const bit<8> C = ;
