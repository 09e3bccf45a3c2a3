// expect: varbit-twice-in-header.p4:6:16: error: header 'options_t' has a second varbit field 'second' (after 'first'): a header has at most one
#include <core.p4>

header options_t {
    varbit<32> first;
    varbit<32> second;
}
