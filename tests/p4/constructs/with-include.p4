// Locations after an #include: tokens from the included file name that file and line, and
// tokens after the #include name this file again (tests/unit/test-p4-frontend.cc).
#include <core.p4>
#include "with-include-defs.p4"

header after_include_t {
    bit<8> marker_in_main;
}
