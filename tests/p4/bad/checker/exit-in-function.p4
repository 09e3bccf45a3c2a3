// expect: exit-in-function.p4:5:5: error: 'exit' is not allowed in a function
#include <core.p4>

void f(inout bit<8> n) {
    exit;
}
