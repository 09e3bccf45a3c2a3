// expect: unbalanced-braces.p4:12:6: error: expected '}' at end of file
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct metadata_t {}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        mark_to_drop(standard_metadata);
    }
