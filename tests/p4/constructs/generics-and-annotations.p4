// Generic structs and headers (struct S<T>, named with their type arguments) and structured
// annotations (@name[...], an expression list or key = value pairs). The checker accepts them;
// the back end does not generate generic structs and headers yet.
#include <core.p4>

struct Pair<T> {
    T first;
    T second;
}

header Tagged<T> {
    bit<8> tag;
    T value;
}

@description["a pair of counters", 2]
@limits[low = 1, high = 8w200]
struct Counters {
    Pair<bit<16>> bytes;
    Tagged<bit<8>> last;
}

control C(inout Counters c) {
    apply {
        c.bytes.first = c.bytes.second;
        c.last.tag = 1;
    }
}
