// expect: optional-parameter-in-action.p4:5:31: error: 'v': @optional is only allowed on parameters of extern functions, extern methods and packages
#include <core.p4>

control C(inout bit<8> x) {
    action a(@optional bit<8> v) { x = v; }
    apply { a(1); }
}
