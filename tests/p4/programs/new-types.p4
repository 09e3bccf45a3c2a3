// `type` declarations and serializable enums used as their underlying types. A `type` is a new
// type (it converts to and from what it is defined as only by a cast) represented as that
// type: a header field, a table key matched by const entries and the control plane, an action
// parameter from the control plane. A serializable enum's value converts implicitly to its
// underlying type: in arithmetic with an int, in an assignment to a bit<8>, in a ternary
// entry's mask.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

typedef bit<9> PortUint_t;
type PortUint_t Port_t;
type bit<16> Tag_t;

enum bit<8> Kind {
    A = 1,
    B = 0x12,
    C = 0x10
}

header t_t {
    Tag_t tag;  // doubled by ingress
    Kind kind;
    bit<8> r;   // kind + 1
    bit<8> s;   // kind, complemented for Kind.B
    bit<8> m;   // 0x3C when kind matches Kind.C &&& 0xF0
}

struct headers_t {
    t_t t;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.t);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action set_port(Port_t p) {
        standard_metadata.egress_spec = (PortUint_t)p;
    }

    action mark() {
        hdr.t.m = 0x3C;
    }

    table by_tag {
        key = {
            hdr.t.tag: exact;
        }
        actions = {
            set_port;
            NoAction;
        }
        entries = {
            (Tag_t)16w5: set_port((Port_t)9w2);
        }
        default_action = NoAction();
    }

    table by_kind {
        key = {
            hdr.t.kind: ternary;
        }
        actions = {
            mark;
            NoAction;
        }
        const entries = {
            Kind.C &&& 0xF0: mark();
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        by_tag.apply();
        by_kind.apply();
        hdr.t.r = hdr.t.kind + 1;
        bit<8> k = hdr.t.kind;
        if (hdr.t.kind == Kind.B) {
            hdr.t.s = k ^ 0xFF;
        } else {
            hdr.t.s = k;
        }
        hdr.t.tag = (Tag_t)((bit<16>)hdr.t.tag << 1);
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
        packet.emit(hdr.t);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
