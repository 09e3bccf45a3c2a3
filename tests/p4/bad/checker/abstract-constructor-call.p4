// expect: abstract-constructor-call.p4:9:5: error: Virtual(): extern 'Virtual' has abstract methods, so only an instance with an initializer that implements them can be made
#include <core.p4>

extern Virtual {
    Virtual();
    abstract void h();
}
package Top(Virtual v);
Top(Virtual()) main;
