// expect: value-set-in-control.p4:5:26: error: value_set 'vs' must be declared in a parser
#include <core.p4>

control C() {
    value_set<bit<8>>(4) vs;
    apply {}
}
