// expect: function-return-type.p4:5:14: error: cannot assign bool to bit<8> without a cast
#include <core.p4>

bit<8> pick(in bit<8> a, in bit<8> b) {
    return a > b;
}
