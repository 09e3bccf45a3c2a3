// expect: action-calls-itself.p4:13:9: error: action 'count' calls itself; P4 does not allow recursion
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct meta_t {
    bit<8> hops;
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action count() {
        meta.hops = meta.hops + 1;
        count();
    }
    apply {
        count();
    }
}
