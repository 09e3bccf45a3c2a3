// expect: v1model-register-index-type.p4:8:5: error: 'register' takes 2 type argument(s), got 1
#define V1MODEL_VERSION 20200408
#include <core.p4>
#include <v1model.p4>

// From version 20200408 on, register takes its index type too: register<T, I>.
control MyIngress(inout standard_metadata_t standard_metadata) {
    register<bit<32>>(4) r;
    apply { }
}
