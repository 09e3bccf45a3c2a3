// expect: for-loop.p4:11:9: error: a for loop is not supported by incsim
#include <core.p4>
#include <v1model.p4>

struct headers_t {}
struct metadata_t { bit<8> n; }

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        for (bit<8> i = 0; i < 4; i = i + 1) {
            meta.n = meta.n + 1;
        }
    }
}
