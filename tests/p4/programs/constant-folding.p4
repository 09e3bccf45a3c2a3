// Constants folded where the control plane needs values: table entry keys and action
// arguments built with concatenation (`++`) and slices of constants, and a key written as a
// one-element list (`{ k } : action`). Output: port 3 with `result` set by the matching entry.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const bit<32> WORD = 32w0x12345678;
const bit<8> MIDDLE = WORD[19:12];              // 0x45

header h_t {
    bit<16> key;
    bit<8>  result;
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
    action set(bit<8> value) { hdr.h.result = value; }

    table t {
        key = { hdr.h.key: exact; }
        actions = { set; NoAction; }
        const entries = {
            { (8w0x0A ++ 8w0x01) } : set(WORD[7:0]);            // 0x0A01 -> 0x78
            (MIDDLE ++ 8w0x02) : set((16w0xABCD)[11:4]);         // 0x4502 -> 0xBC
            16w0x0003 : set(MIDDLE);                             // 0x0003 -> 0x45
        }
        default_action = NoAction();
    }

    apply {
        t.apply();
        standard_metadata.egress_spec = 3;
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

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
