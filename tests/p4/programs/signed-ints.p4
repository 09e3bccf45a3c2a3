// Signed arithmetic on int<8>/int<16> read from the packet: negative values, + - and unary -
// with two's-complement wrap, signed comparisons (against unsigned ones), arithmetic >> by a
// run-time amount, and casts int<8> -> int<16> (sign-extends) -> bit<16>, bit<8> -> int<8>.
// Packets whose p is below -1000 (a signed comparison) are dropped.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

// Inputs (9 bytes).
header in_t {
    bit<8>  port;   // output port
    bit<8>  sh;     // shift amount (0..7 in the tests)
    int<8>  x;
    int<8>  y;
    bit<8>  u;      // reinterpreted as int<8>
    int<16> p;
    int<16> q;
}

// Results (26 bytes), made valid and filled by ingress.
header out_t {
    bit<8>  cmp;    // flags: x<y x<=y x>y x>=y (signed) | (bit<8>)x < (bit<8>)y | x<0 | p<q | p<0
    int<8>  add;    // x + y
    int<8>  sub;    // x - y
    int<8>  neg;    // -x
    int<8>  sar;    // x >> sh (arithmetic)
    bit<8>  lsr;    // ((bit<8>)x) >> sh (logical, for contrast)
    int<8>  shl;    // x << 1
    int<8>  min;    // x < y ? x : y
    int<8>  ucast;  // (int<8>)u
    bit<8>  ucmp;   // (int<8>)u < 0 ? 1 : 0
    int<16> sext;   // (int<16>)x
    bit<16> sextb;  // (bit<16>)((int<16>)x)
    bit<16> zextb;  // (bit<16>)((bit<8>)x)
    int<16> uext;   // (int<16>)((int<8>)u)
    int<16> add16;  // p + q
    int<16> sub16;  // p - q
    int<16> sar16;  // p >> 4
    int<16> mix;    // p + (int<16>)x
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.i);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        int<8> x = hdr.i.x;
        int<8> y = hdr.i.y;
        int<16> p = hdr.i.p;
        int<16> q = hdr.i.q;
        hdr.o.setValid();

        bool slt = x < y;
        bit<1> f_ult = ((bit<8>)x < (bit<8>)y) ? 1w1 : 1w0;
        hdr.o.cmp = (slt ? 1w1 : 1w0) ++ (x <= y ? 1w1 : 1w0) ++ (x > y ? 1w1 : 1w0)
                    ++ (x >= y ? 1w1 : 1w0) ++ f_ult ++ (x < 0 ? 1w1 : 1w0)
                    ++ (p < q ? 1w1 : 1w0) ++ (p < 0 ? 1w1 : 1w0);
        hdr.o.add = x + y;
        hdr.o.sub = x - y;
        hdr.o.neg = -x;
        hdr.o.sar = x >> hdr.i.sh;
        hdr.o.lsr = ((bit<8>)x) >> hdr.i.sh;
        hdr.o.shl = x << 1;
        hdr.o.min = slt ? x : y;
        int<8> s = (int<8>)hdr.i.u;
        hdr.o.ucast = s;
        hdr.o.ucmp = s < 0 ? 8w1 : 8w0;
        hdr.o.sext = (int<16>)x;
        hdr.o.sextb = (bit<16>)((int<16>)x);
        hdr.o.zextb = (bit<16>)((bit<8>)x);
        hdr.o.uext = (int<16>)((int<8>)hdr.i.u);
        hdr.o.add16 = p + q;
        hdr.o.sub16 = p - q;
        hdr.o.sar16 = p >> 4;
        hdr.o.mix = p + (int<16>)x;

        if (p < -1000) {
            mark_to_drop(standard_metadata);
        } else {
            standard_metadata.egress_spec = (bit<9>)hdr.i.port;
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
        packet.emit(hdr.i);
        packet.emit(hdr.o);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
