// Named arguments: V1Switch's blocks passed by name in another order than its parameters
// (matched by position they would not type-check), and an action called with its arguments
// named in reverse order. Output: port 4 with `result` = 7.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> result;
}

struct headers_t {
    h_t h;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action set(bit<9> port, bit<8> value) {
        standard_metadata.egress_spec = port;
        hdr.h.result = value;
    }
    apply {
        set(value = 7, port = 4);
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.h);
    }
}

V1Switch(dep = MyDeparser(), ck = MyComputeChecksum(), eg = MyEgress(), ig = MyIngress(),
         vr = MyVerifyChecksum(), p = MyParser()) main;
