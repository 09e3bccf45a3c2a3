// expect: missing-include.p4:3:10: error: no_such_arch.p4: No such file or directory
#include <core.p4>
#include <no_such_arch.p4>
