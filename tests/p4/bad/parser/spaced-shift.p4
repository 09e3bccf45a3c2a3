// expect: spaced-shift.p4:10:25: error: '> >' is not a shift: write '>>' without a space
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct metadata_t { bit<32> x; }

control MyIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        meta.x = meta.x > > 2;
    }
}
