// expect: switch-repeated-label.p4:14:13: error: 'a' is already a label of this switch
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
            a: { standard_metadata.egress_spec = 2; }
            a: { standard_metadata.egress_spec = 3; }
        }
    }
}
