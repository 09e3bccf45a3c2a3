// expect: local-hides-parameter.p4:8:19: error: the declaration of 'h' hides the parameter 'h'
#include <core.p4>

struct headers_t { bit<8> x; }

control C(inout headers_t h) {
    apply {
        headers_t h = h;
    }
}
