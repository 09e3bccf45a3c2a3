// expect: function-void-returns-value.p4:5:12: error: function 'f' returns void, not a value
#include <core.p4>

void f(in bit<8> n) {
    return n;
}
