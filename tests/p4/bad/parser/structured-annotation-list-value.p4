// expect: structured-annotation-list-value.p4:4:17: error: a value in @limits[...] must be a literal or a constant expression, not a list
#include <core.p4>

@limits[range = { 1, 2 }]
const bit<8> X = 1;
