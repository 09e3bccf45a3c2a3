// expect: bad-token.p4:6:22: error: unexpected character '$'
#include <core.p4>

header h_t {
    bit<8> a;
    bit<8> b;        $
}
