// expect: literal-too-wide.p4:4:26: error: integer literal 8w300 does not fit in 8 bits (bit<8>)
#include <core.p4>

const bit<8> LIMIT =     8w300;
