// Unsigned expressions on bit<8>/bit<16>/bit<32> read from the packet and written back into it:
// wrap-around + - *, saturating |+| |-|, & | ^ ~, shifts (by a run-time amount that may be
// >= the width), comparisons into bools and bits via ?:, slices read and assigned, ++,
// narrowing/widening casts, literals with and without width, and ?: chains.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

// Inputs (15 bytes).
header in_t {
    bit<8>  port;   // output port; 0 drops the packet
    bit<8>  s;      // shift amount
    bit<8>  a8;
    bit<8>  b8;
    bit<16> a16;
    bit<16> b16;
    bit<32> a32;
    bit<32> b32;
}

// 8-bit results (16 bytes), made valid and filled by ingress; emitted after in_t and before
// the payload.
header out8_t {
    bit<8> add;     // a8 + b8
    bit<8> sub;     // a8 - b8
    bit<8> mul;     // a8 * b8
    bit<8> sadd;    // a8 |+| b8
    bit<8> ssub;    // a8 |-| b8
    bit<8> and_;    // a8 & b8
    bit<8> or_;     // a8 | b8
    bit<8> xor_;    // a8 ^ b8
    bit<8> not_;    // ~a8
    bit<8> shl;     // a8 << s
    bit<8> shr;     // a8 >> s
    bit<8> cmp;     // lt le gt ge eq ne 0 0 (one bit each, a8 vs b8)
    bit<8> swap;    // nibbles of a8 swapped through slice assignments
    bit<8> trunc;   // (bit<8>)a16
    bit<8> cls;     // ?: chain on a8
    bit<8> lit;     // (a8 + 255) ^ 8w0x0F
}

// 16-bit results (20 bytes).
header out16_t {
    bit<16> add;    // a16 + b16
    bit<16> sub;    // a16 - b16
    bit<16> mul;    // a16 * b16
    bit<16> sadd;   // a16 |+| b16
    bit<16> ssub;   // a16 |-| b16
    bit<16> wide;   // (bit<16>)a8 + (bit<16>)b8: no wrap
    bit<16> narrow; // (bit<16>)(a8 + b8): wraps at 8 bits, then zero-extends
    bit<16> shr;    // a16 >> s
    bit<16> rot;    // a16[3:0] ++ a16[15:4] (rotate right by 4)
    bit<16> patch;  // a16 with [15:8] = b8 and [0:0] = 1
}

// 32-bit results (28 bytes).
header out32_t {
    bit<32> add;    // a32 + b32
    bit<32> sub;    // a32 - b32
    bit<32> mul;    // a32 * b32
    bit<32> cat;    // a8 ++ b8 ++ a16
    bit<32> w1;     // ((bit<32>)a8) << 20
    bit<32> w2;     // (bit<32>)(a8 << 4): the shift happens in 8 bits
    bit<32> mix;    // a32 * 3 + (b32 >> 28) - 1
}

struct headers_t {
    in_t    i;
    out8_t  o8;
    out16_t o16;
    out32_t o32;
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
        hdr.o8.setValid();
        hdr.o16.setValid();
        hdr.o32.setValid();
        bit<8> a8 = hdr.i.a8;
        bit<8> b8 = hdr.i.b8;
        bit<8> s = hdr.i.s;

        hdr.o8.add = a8 + b8;
        hdr.o8.sub = a8 - b8;
        hdr.o8.mul = a8 * b8;
        hdr.o8.sadd = a8 |+| b8;
        hdr.o8.ssub = a8 |-| b8;
        hdr.o8.and_ = a8 & b8;
        hdr.o8.or_ = a8 | b8;
        hdr.o8.xor_ = a8 ^ b8;
        hdr.o8.not_ = ~a8;
        hdr.o8.shl = a8 << s;
        hdr.o8.shr = a8 >> s;

        bool lt = a8 < b8;
        bool le = a8 <= b8;
        bool gt = a8 > b8;
        bool ge = a8 >= b8;
        bool eq = a8 == b8;
        bool ne = a8 != b8;
        bit<1> f_lt = lt ? 1w1 : 1w0;
        bit<1> f_le = le ? 1w1 : 1w0;
        bit<1> f_gt = gt ? 1w1 : 1w0;
        bit<1> f_ge = ge ? 1w1 : 1w0;
        hdr.o8.cmp = f_lt ++ f_le ++ f_gt ++ f_ge ++ (eq ? 1w1 : 1w0) ++ (ne ? 1w1 : 1w0) ++ 2w0;

        hdr.o8.swap = 0;
        hdr.o8.swap[7:4] = a8[3:0];
        hdr.o8.swap[3:0] = a8[7:4];
        hdr.o8.trunc = (bit<8>)hdr.i.a16;
        hdr.o8.cls = a8 == 0 ? 8w1 : (a8 < 128 ? 8w2 : (a8 == 8w255 ? 8w4 : 8w3));
        hdr.o8.lit = (a8 + 255) ^ 8w0x0F;

        hdr.o16.add = hdr.i.a16 + hdr.i.b16;
        hdr.o16.sub = hdr.i.a16 - hdr.i.b16;
        hdr.o16.mul = hdr.i.a16 * hdr.i.b16;
        hdr.o16.sadd = hdr.i.a16 |+| hdr.i.b16;
        hdr.o16.ssub = hdr.i.a16 |-| hdr.i.b16;
        hdr.o16.wide = (bit<16>)a8 + (bit<16>)b8;
        hdr.o16.narrow = (bit<16>)(a8 + b8);
        hdr.o16.shr = hdr.i.a16 >> s;
        hdr.o16.rot = hdr.i.a16[3:0] ++ hdr.i.a16[15:4];
        hdr.o16.patch = hdr.i.a16;
        hdr.o16.patch[15:8] = b8;
        hdr.o16.patch[0:0] = 1w1;

        hdr.o32.add = hdr.i.a32 + hdr.i.b32;
        hdr.o32.sub = hdr.i.a32 - hdr.i.b32;
        hdr.o32.mul = hdr.i.a32 * hdr.i.b32;
        hdr.o32.cat = a8 ++ b8 ++ hdr.i.a16;
        hdr.o32.w1 = ((bit<32>)a8) << 20;
        hdr.o32.w2 = (bit<32>)(a8 << 4);
        hdr.o32.mix = hdr.i.a32 * 3 + (hdr.i.b32 >> 28) - 1;

        if (hdr.i.port == 0) {
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
        packet.emit(hdr.o8);
        packet.emit(hdr.o16);
        packet.emit(hdr.o32);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
