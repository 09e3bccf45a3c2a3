// expect: this-outside-initializer.p4:10:5: error: 'this' is only allowed in the initializer of an extern instance
#include <core.p4>

extern Counter {
    Counter();
    void count();
}

void f() {
    this.count();
}
