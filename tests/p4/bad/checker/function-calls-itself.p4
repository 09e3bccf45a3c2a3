// expect: function-calls-itself.p4:5:12: error: function 'count' calls itself; P4 does not allow recursion
#include <core.p4>

bit<8> count(in bit<8> n) {
    return count(n - 1);
}
