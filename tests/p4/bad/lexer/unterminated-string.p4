// expect: unterminated-string.p4:4:7: error: unterminated string literal
#include <core.p4>

@name("ingress.table
action a() {}
