// expect: dont-care-for-in-parameter.p4:7:23: error: '_' is only allowed as the argument of an out parameter, not of 'x' of 'log_value'
#include <core.p4>

extern void log_value(in bit<32> x);

control C() {
    apply { log_value(_); }
}
