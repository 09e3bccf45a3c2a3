// expect: extra-brace.p4:7:1: error: unexpected '}' (no matching '{')
#include <core.p4>

header h_t {
    bit<8> a;
}
}
