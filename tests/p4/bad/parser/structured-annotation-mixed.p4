// expect: structured-annotation-mixed.p4:4:18: error: @limits[...] mixes key = value pairs and plain expressions; use one or the other
#include <core.p4>

@limits[low = 1, 200]
const bit<8> X = 1;
