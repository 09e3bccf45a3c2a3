// expect: tuple-of-control.p4:6:26: error: a tuple cannot hold ct: its elements are values
#include <core.p4>

control ct();

extern void use(in tuple<ct> t);
