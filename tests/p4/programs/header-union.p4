// header_union: a union of two headers extracted into either member (select on a byte), or into
// one then the other (the second extract invalidates the first); a stack of unions extracted
// with .next; isValid() on the union; making a member valid invalidates the other: setValid(),
// assigning a header list, assigning a valid header, an action's out argument; setInvalid() on
// the valid member leaves the union invalid. The deparser emits the union's valid member.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header pre_t {
    bit<8> op;      // what ingress does to u (below)
    bit<8> which;   // 1: extract u.a; 2: u.b; 3: u.a then u.b; 4: us.next.a then us.next.b
    bit<8> before;  // out: validity bits after parsing (see Validity)
    bit<8> after;   // out: validity bits after ingress
}

header a_t {
    bit<8> a;
}

header b_t {
    bit<16> b;
}

header_union u_t {
    a_t a;
    b_t b;
}

struct headers_t {
    pre_t  pre;
    u_t    u;
    u_t[2] us;
    b_t    spare;  // never extracted
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.pre);
        transition select(hdr.pre.which) {
            1: parse_a;
            2: parse_b;
            3: parse_a_then_b;
            4: parse_stack;
            default: accept;
        }
    }

    state parse_a {
        packet.extract(hdr.u.a);
        transition accept;
    }

    state parse_b {
        packet.extract(hdr.u.b);
        transition accept;
    }

    state parse_a_then_b {
        packet.extract(hdr.u.a);
        packet.extract(hdr.u.b);
        transition accept;
    }

    state parse_stack {
        packet.extract(hdr.us.next.a);
        packet.extract(hdr.us.next.b);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    // Validity bits: 1 u, 2 u.a, 4 u.b, 8 us[0] (its a), 16 us[1] (its b).
    action validity(out bit<8> bits) {
        bits = (hdr.u.isValid() ? 8w1 : 8w0) | (hdr.u.a.isValid() ? 8w2 : 8w0) |
               (hdr.u.b.isValid() ? 8w4 : 8w0) |
               (hdr.us[0].isValid() && hdr.us[0].a.isValid() ? 8w8 : 8w0) |
               (hdr.us[1].isValid() && hdr.us[1].b.isValid() ? 8w16 : 8w0);
    }

    action make_b(out b_t h) {
        h.setValid();
        h.b = 0xCAFE;
    }

    apply {
        validity(hdr.pre.before);
        if (hdr.pre.op == 1) {
            hdr.u.b.setValid();
            hdr.u.b.b = 0xBEEF;
        } else if (hdr.pre.op == 2) {
            hdr.u.a = { 0x5A };
        } else if (hdr.pre.op == 3) {
            hdr.u.a.setInvalid();
        } else if (hdr.pre.op == 4) {
            hdr.spare.setValid();
            hdr.spare.b = 0x1234;
            hdr.u.b = hdr.spare;
            hdr.spare.setInvalid();
        } else if (hdr.pre.op == 5) {
            hdr.u.b = hdr.spare;  // spare is invalid: u.b becomes invalid, u.a is kept
        } else if (hdr.pre.op == 6) {
            make_b(hdr.u.b);
        }
        validity(hdr.pre.after);
        standard_metadata.egress_spec = 1;
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
        packet.emit(hdr.u);
        packet.emit(hdr.us);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
