// expect: entry-priority-first.p4:12:22: error: this entry has a priority but the first entry of table 't' has none: give the first entry one too
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    action a() { }
    table t {
        key = { standard_metadata.ingress_port: ternary; }
        actions = { a; }
        entries = {
            1 &&& 1 : a();
            priority=40: 2 &&& 2 : a();
        }
    }
    apply { t.apply(); }
}
