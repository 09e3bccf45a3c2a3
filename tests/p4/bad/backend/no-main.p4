// expect: no-main.p4: error: the program has no 'main' (V1Switch(...) main;)
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> f;
}
