// expect: shift-int-by-variable.p4:7:44: error: shifting an int (a constant with no width) by an amount known only at run time: give the constant a width, e.g. 8w1
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = (1 << standard_metadata.ingress_port) + 9w2;
    }
}
