// expect: function-decl.p4:5:8: error: a function declaration is not supported by incsim; make 'max' an action
#include <core.p4>

// Functions are P4_16, but incsim compiles only actions.
bit<8> max(in bit<8> a, in bit<8> b) {
    return a > b ? a : b;
}
