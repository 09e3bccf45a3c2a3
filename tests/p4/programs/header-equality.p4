// == and != on headers, structs and header stacks. Two headers are equal when both are
// invalid, or both are valid with equal fields; structs and stacks compare field by field and
// element by element (a stack's headers by the same rule).
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header c_t {
    bit<8> f;   // bit 0: p1 follows; bit 1: p2 follows
    bit<8> g;   // compared with f through two structs
}

header p_t {
    bit<8> a;
    bit<16> b;
}

header r_t {
    bit<8> v;   // bit 7 p1 == p2, 6 p1 != p2, 5 struct ==, 4 struct !=, 3 copy == p1, 2 stacks ==
}

struct pair_t {
    bit<8> x;
    bit<16> y;
}

struct headers_t {
    c_t c;
    r_t r;
    p_t p1;
    p_t p2;
    p_t[2] s1;
    p_t[2] s2;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.c);
        transition select(hdr.c.f[0:0]) {
            1: first;
            default: second;
        }
    }

    state first {
        packet.extract(hdr.p1);
        transition second;
    }

    state second {
        transition select(hdr.c.f[1:1]) {
            1: get2;
            default: accept;
        }
    }

    state get2 {
        packet.extract(hdr.p2);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.r.setValid();
        hdr.r.v = 0;
        if (hdr.p1 == hdr.p2) {
            hdr.r.v = hdr.r.v | 0x80;
        }
        if (hdr.p1 != hdr.p2) {
            hdr.r.v = hdr.r.v | 0x40;
        }
        pair_t m1 = { hdr.c.f, 16w7 };
        pair_t m2 = { hdr.c.g, 16w7 };
        hdr.r.v = hdr.r.v | (m1 == m2 ? 8w0x20 : 8w0);
        hdr.r.v = hdr.r.v | (m1 != m2 ? 8w0x10 : 8w0);
        p_t copy = hdr.p1;
        if (copy == hdr.p1) {
            hdr.r.v = hdr.r.v | 0x08;
        }
        hdr.s1[0] = hdr.p1;
        hdr.s1[1] = hdr.p2;
        hdr.s2[0] = hdr.p1;
        hdr.s2[1] = hdr.p1;
        if (hdr.s1 == hdr.s2) {
            hdr.r.v = hdr.r.v | 0x04;
        }
        hdr.s1[0].setInvalid();
        hdr.s1[1].setInvalid();
        hdr.s2[0].setInvalid();
        hdr.s2[1].setInvalid();
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
        packet.emit(hdr.c);
        packet.emit(hdr.r);
        packet.emit(hdr.p1);
        packet.emit(hdr.p2);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
