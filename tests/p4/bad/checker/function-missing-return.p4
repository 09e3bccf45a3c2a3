// expect: function-missing-return.p4:5:8: error: function 'max' does not return a value on every path
#include <core.p4>

// The path where a <= b falls off the end without a value.
bit<8> max(in bit<8> a, in bit<8> b) {
    if (a > b) {
        return a;
    }
}
