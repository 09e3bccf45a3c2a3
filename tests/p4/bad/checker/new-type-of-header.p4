// expect: new-type-of-header.p4:5:6: error: type 'NewH' must be defined as bit<N>, int<N>, bool or another 'type', not H
#include <core.p4>

header H { bit<8> f; }
type H NewH;
