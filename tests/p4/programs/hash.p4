// v1model hash(): crc16, crc32 and identity over field lists of mixed widths, including lists
// whose total is not a whole number of bytes (the last byte is zero-padded at its low end),
// with base and max (mod), max 0 (no reduction), results truncated to narrower outputs, and
// identity over more than 8 bytes. The output port is 1 + crc16(d) % 4; f == 0xF drops.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<4>  n;
    bit<8>  b;
    bit<4>  f;
    bit<16> w;
    bit<32> d;
}   // 8 bytes

// Made valid and filled by ingress (35 bytes).
header out_t {
    bit<16> c16_nb;     // crc16 {n, b}                      (12 bits)
    bit<32> c32_all;    // crc32 {n, b, f, w, d}             (the 8 header bytes)
    bit<32> c32_nbw;    // crc32 {n, b, w}                   (28 bits)
    bit<16> c16_mod;    // crc16 {w, d}, base 100, max 1000
    bit<8>  c32_m16;    // crc32 {d}, max 16
    bit<16> c16_wrap;   // crc16 {b}, base 0xFFF0, max 0: the sum wraps in 16 bits
    bit<32> c32_base;   // crc32 {w}, base 7, max 0
    bit<8>  c16_tr;     // crc16 {w, d} into 8 bits: truncated
    bit<16> id_nb;      // identity {n, b}: (n ++ b) << 4
    bit<8>  id_f;       // identity {f}: f << 4
    bit<32> id_mod;     // identity {d}, max 1000: d % 1000
    bit<64> id_long;    // identity {d, w, b, n, f, w}: 10 bytes, the first 8 count
}

struct headers_t {
    h_t   h;
    out_t o;
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
    apply {
        hdr.o.setValid();
        hash(hdr.o.c16_nb, HashAlgorithm.crc16, 16w0, { hdr.h.n, hdr.h.b }, 32w0);
        hash(hdr.o.c32_all, HashAlgorithm.crc32, 32w0,
             { hdr.h.n, hdr.h.b, hdr.h.f, hdr.h.w, hdr.h.d }, 32w0);
        hash(hdr.o.c32_nbw, HashAlgorithm.crc32, 32w0, { hdr.h.n, hdr.h.b, hdr.h.w }, 32w0);
        hash(hdr.o.c16_mod, HashAlgorithm.crc16, 16w100, { hdr.h.w, hdr.h.d }, 32w1000);
        hash(hdr.o.c32_m16, HashAlgorithm.crc32, 8w0, { hdr.h.d }, 32w16);
        hash(hdr.o.c16_wrap, HashAlgorithm.crc16, 16w0xFFF0, { hdr.h.b }, 32w0);
        hash(hdr.o.c32_base, HashAlgorithm.crc32, 32w7, { hdr.h.w }, 32w0);
        hash(hdr.o.c16_tr, HashAlgorithm.crc16, 8w0, { hdr.h.w, hdr.h.d }, 32w0);
        hash(hdr.o.id_nb, HashAlgorithm.identity, 16w0, { hdr.h.n, hdr.h.b }, 32w0);
        hash(hdr.o.id_f, HashAlgorithm.identity, 8w0, { hdr.h.f }, 32w0);
        hash(hdr.o.id_mod, HashAlgorithm.identity, 32w0, { hdr.h.d }, 32w1000);
        hash(hdr.o.id_long, HashAlgorithm.identity, 64w0,
             { hdr.h.d, hdr.h.w, hdr.h.b, hdr.h.n, hdr.h.f, hdr.h.w }, 32w0);

        if (hdr.h.f == 0xF) {
            mark_to_drop(standard_metadata);
        } else {
            hash(standard_metadata.egress_spec, HashAlgorithm.crc16, 9w1, { hdr.h.d }, 32w4);
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
        packet.emit(hdr.o);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
