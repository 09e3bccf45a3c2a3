// expect: bit-width-too-large.p4:7:9: error: the width of a bit type must be a constant from 1 to 2048
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    apply {
        bit<2147483648> wide = 0;
    }
}
