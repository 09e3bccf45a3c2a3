// Slices as lvalues: nested slices (n[7:4][2:1] is bits 6:5 of n), a slice passed to an
// action's inout and out parameters (read before, written back after), and a slice as the out
// argument of a register read and of hash.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header s_t {
    bit<8> n;   // n[7:4][2:1] = 2w3; n[3:0][3:3] = 0
    bit<8> a;   // bump(a[5:2]): the nibble at bits 5..2 plus 1, wrapping in 4 bits
    bit<8> o;   // put(o[7:5]): bits 7..5 become 3w5
    bit<16> w;  // bits 11..4 read from a register holding 0xAB
    bit<16> h;  // bits 11..4 the identity hash of n (after the writes above)
}

struct headers_t {
    s_t s;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.s);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<8>>(1) r;

    action bump(inout bit<4> v) {
        v = v + 1;
    }

    action put(out bit<3> v) {
        v = 3w5;
    }

    apply {
        standard_metadata.egress_spec = 1;
        hdr.s.n[7:4][2:1] = 2w3;
        hdr.s.n[3:0][3:3] = 0;
        bump(hdr.s.a[5:2]);
        put(hdr.s.o[7:5]);
        r.write(0, 8w0xAB);
        r.read(hdr.s.w[11:4], 0);
        hash(hdr.s.h[11:4], HashAlgorithm.identity, 8w0, { hdr.s.n }, 16w256);
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
        packet.emit(hdr.s);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
