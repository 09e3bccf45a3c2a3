// Table action lists that bind arguments (`actions = { setbyte(hdr.d.b2); }`): the action's
// directional parameters are bound where the table lists it, the directionless ones come from
// the entry. One action bound twice to different fields in two tables, an in argument that is
// an expression, and a bound default action. Output: port 2.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8> key;
    bit<8> b1;
    bit<8> b2;
    bit<8> sum;
}

struct headers_t {
    data_t d;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.d);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action setbyte(out bit<8> target, bit<8> value) {
        target = value;
    }
    action add(inout bit<8> acc, in bit<8> amount, bit<8> extra) {
        acc = acc + amount + extra;
    }

    table first {
        key = { hdr.d.key: exact; }
        actions = { setbyte(hdr.d.b1); add(hdr.d.sum, hdr.d.b1 + hdr.d.b2); }
        const entries = {
            1 : setbyte(hdr.d.b1, 0x11);
            2 : add(hdr.d.sum, hdr.d.b1 + hdr.d.b2, 1);
        }
        default_action = setbyte(hdr.d.b1, 0xEE);
    }
    table second {
        key = { hdr.d.key: exact; }
        actions = { setbyte(hdr.d.b2); NoAction; }
        default_action = NoAction();
    }

    apply {
        first.apply();
        second.apply();
        standard_metadata.egress_spec = 2;
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
        packet.emit(hdr.d);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
