// expect: main-not-package.p4:8:11: error: 'main' must be an instance of a package, not of 'Counter'
#include <core.p4>

extern Counter {
    Counter();
}

Counter() main;
