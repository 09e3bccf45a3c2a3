// expect: switch-two-defaults.p4:13:13: error: a switch has at most one 'default' label
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    action a() { }
    table t {
        actions = { a; }
    }
    apply {
        switch (t.apply().action_run) {
            default: { standard_metadata.egress_spec = 2; }
            default: { standard_metadata.egress_spec = 3; }
        }
    }
}
