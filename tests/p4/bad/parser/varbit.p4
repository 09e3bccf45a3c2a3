// expect: varbit.p4:6:5: error: varbit is not supported by incsim
#include <core.p4>

header options_t {
    bit<8> length;
    varbit<320> data;
}
