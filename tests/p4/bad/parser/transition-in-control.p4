// expect: transition-in-control.p4:9:9: error: a transition can only end a parser state
#include <core.p4>
#include <v1model.p4>

struct headers_t {}

control MyIngress(inout headers_t hdr, inout headers_t meta, inout standard_metadata_t sm) {
    apply {
        transition accept;
    }
}
