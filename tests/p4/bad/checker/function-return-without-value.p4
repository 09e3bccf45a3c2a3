// expect: function-return-without-value.p4:6:9: error: function 'f' must return a value of type bit<8>
#include <core.p4>

bit<8> f(in bit<8> n) {
    if (n == 0) {
        return;
    }
    return n;
}
