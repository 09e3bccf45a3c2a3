// expect: default-value-not-constant.p4:6:38: error: next_value(): the default value of a parameter must be a compile-time constant
#include <core.p4>

extern bit<8> next_value();

extern void emit_value(in bit<8> v = next_value());
