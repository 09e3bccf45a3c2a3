// expect: method-returns-int.p4:6:5: error: method 'next' of extern 'Source' cannot return 'int': give the value a width
#include <core.p4>

extern Source {
    Source();
    int next();
}
