// Const entries as p4c's BMv2 back end takes them: value bits outside a ternary mask or an
// lpm prefix are a warning and are masked off, and `@priority(N)` ranks ternary entries (an
// entry's priority is N, or else its position from 1; the lowest wins). Output: the port the
// winning entry names.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> t;      // ternary key
    bit<16> l;      // lpm key
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
    action to(bit<9> port) { standard_metadata.egress_spec = port; }

    table ternary_t {
        key = { hdr.h.t: ternary; }
        actions = { to; NoAction; }
        const entries = {
            0x1111 &&& 0x000F : to(1) @priority(3);    // matches t & 0xF == 1 (warning)
            0x1181            : to(2);                 // priority 2 (its position)
            0x1181 &&& 0xF00F : to(3) @priority(1);    // wins over both where they overlap
        }
        default_action = NoAction();
    }
    table lpm_t {
        key = { hdr.h.l: lpm; }
        actions = { to; NoAction; }
        const entries = {
            0x12FF &&& 0xFF00 : to(5);                 // the prefix 0x12/8 (warning)
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 9;
        if (!ternary_t.apply().hit) {
            lpm_t.apply();
        }
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
