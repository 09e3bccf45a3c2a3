// expect: not-a-statement.p4:10:20: error: this expression is not a statement (expected an assignment or a call)
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct metadata_t { bit<32> count; }

control MyIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        meta.count + 1;
    }
}
