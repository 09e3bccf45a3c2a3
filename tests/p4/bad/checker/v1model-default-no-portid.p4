// expect: v1model-default-no-portid.p4:7:21: error: 'PortId_t' is not declared
#include <core.p4>
#include <v1model.p4>

// p4c's default V1MODEL_VERSION is 20180101, which has no PortId_t (ports are bit<9>).
control MyIngress(inout standard_metadata_t standard_metadata) {
    action set_port(PortId_t port) { standard_metadata.egress_spec = port; }
    apply { }
}
