// expect: table-tableonly-default.p4:10:26: error: 'a' is @tableonly in table 't': it cannot be the default action
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    action a() { }
    table t {
        key = { standard_metadata.ingress_port: exact; }
        actions = { @tableonly a; }
        default_action = a;
    }
    apply { t.apply(); }
}
