// expect: parts/bad-include-part.p4:4:17: error: unexpected character '$'
#include <core.p4>
#include "parts/bad-include-part.p4"

header after_t {
    bit<8> b;
}
