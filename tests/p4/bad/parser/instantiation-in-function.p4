// expect: instantiation-in-function.p4:9:9: error: 'p': instantiations are not allowed in a function or a block of statements
#include <core.p4>

parser P() {
    state start { transition accept; }
}

void f() {
    P() p;
}
