#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; }
