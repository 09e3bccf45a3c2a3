// Header stacks: a stack of three 1-byte headers extracted with .next in a parser loop that a
// bottom-of-stack bit ends (looked ahead before each extract); a fourth element raises
// error.StackOutOfBounds, which ingress sees. Ingress uses constant indices (s[0], s[2]),
// isValid on elements, setInvalid/setValid on elements, and the deparser emits the stack.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header pre_t {
    bit<8> op;      // 1: invalidate s[1]; 2: add s[2] if missing; 3: drop
    bit<8> nvalid;  // out: valid elements after parsing
    bit<8> code;    // out: 0 NoError, 1 StackOutOfBounds, 2 PacketTooShort, EE other
    bit<8> first;   // out: s[0].val, or FF when invalid
    bit<8> third;   // out: s[2].val, or FF when invalid
}

header s_t {
    bit<7> val;
    bit<1> bos;     // 1 on the last element
}

header post_t {
    bit<8> tail;    // ingress inverts it
}

struct headers_t {
    pre_t    pre;
    s_t[3]   s;
    post_t   post;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.pre);
        transition parse_s;
    }

    state parse_s {
        transition select(packet.lookahead<s_t>().bos) {
            1: parse_last;
            default: parse_more;
        }
    }

    state parse_more {
        packet.extract(hdr.s.next);
        transition parse_s;
    }

    state parse_last {
        packet.extract(hdr.s.next);
        transition parse_post;
    }

    state parse_post {
        packet.extract(hdr.post);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        bit<8> n = 0;
        if (hdr.s[0].isValid()) {
            n = n + 1;
        }
        if (hdr.s[1].isValid()) {
            n = n + 1;
        }
        if (hdr.s[2].isValid()) {
            n = n + 1;
        }
        hdr.pre.nvalid = n;

        if (standard_metadata.parser_error == error.NoError) {
            hdr.pre.code = 0;
        } else if (standard_metadata.parser_error == error.StackOutOfBounds) {
            hdr.pre.code = 1;
        } else if (standard_metadata.parser_error == error.PacketTooShort) {
            hdr.pre.code = 2;
        } else {
            hdr.pre.code = 0xEE;
        }

        hdr.pre.first = hdr.s[0].isValid() ? (bit<8>)hdr.s[0].val : 8w0xFF;
        hdr.pre.third = hdr.s[2].isValid() ? (bit<8>)hdr.s[2].val : 8w0xFF;

        if (hdr.s[0].isValid()) {
            hdr.s[0].val = hdr.s[0].val + 1;
        }
        if (hdr.pre.op == 1) {
            hdr.s[1].setInvalid();
        }
        if (hdr.pre.op == 2 && !hdr.s[2].isValid()) {
            hdr.s[2].setValid();
            hdr.s[2].val = 0x7F;
            hdr.s[2].bos = 1;
        }
        if (hdr.post.isValid()) {
            hdr.post.tail = ~hdr.post.tail;
        }

        if (hdr.pre.op == 3) {
            mark_to_drop(standard_metadata);
        } else if (standard_metadata.parser_error == error.NoError) {
            standard_metadata.egress_spec = 1;
        } else {
            standard_metadata.egress_spec = 2;
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
        packet.emit(hdr.pre);
        packet.emit(hdr.s);
        packet.emit(hdr.post);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
