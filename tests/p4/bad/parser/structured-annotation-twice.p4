// expect: structured-annotation-twice.p4:5:2: error: structured annotation @limits is given twice on the same element
#include <core.p4>

@limits[low = 1]
@limits[high = 2]
const bit<8> X = 1;
