// expect: table-defaultonly-entry.p4:13:17: error: 'b' is @defaultonly in table 't': an entry cannot run it
#include <core.p4>
#include <v1model.p4>

control MyIngress(inout standard_metadata_t standard_metadata) {
    action a() { }
    action b() { }
    table t {
        key = { standard_metadata.ingress_port: exact; }
        actions = { a; @defaultonly b; }
        const entries = {
            1 : a();
            2 : b();
        }
    }
    apply { t.apply(); }
}
