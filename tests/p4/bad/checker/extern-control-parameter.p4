// expect: extern-control-parameter.p4:7:12: error: 'c': a parameter of extern 'Wrap' cannot have the control type C
#include <core.p4>

control C();

extern Wrap {
    Wrap(C c);
    void execute();
}
