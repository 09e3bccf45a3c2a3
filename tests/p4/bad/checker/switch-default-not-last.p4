// expect: switch-default-not-last.p4:14:13: error: 'default' must be the last label
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    action a() { }
    action b() { }
    table t {
        actions = { a; b; }
    }
    apply {
        switch (t.apply().action_run) {
            default: { standard_metadata.egress_spec = 2; }
            a: { standard_metadata.egress_spec = 3; }
        }
    }
}
