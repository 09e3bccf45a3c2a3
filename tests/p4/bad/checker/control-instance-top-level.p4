// expect: control-instance-top-level.p4:8:5: error: control 'C' cannot be instantiated at the top level: instantiate it inside a parser or control, or pass it to a package
#include <core.p4>

control C() {
    apply { }
}

C() c;

control D() {
    apply {
        c.apply();
    }
}
