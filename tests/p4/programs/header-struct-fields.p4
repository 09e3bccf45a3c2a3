// Header fields of struct and bool type: on the wire a struct-typed field is its fields in
// order (nested structs too) and a bool is one bit. Extracted, read, written (a field of the
// struct, the whole struct, the bool) and emitted; lookahead of such a header.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

struct inner_t {
    bit<4> lo;
    bool   flag;
}

struct pair_t {
    bit<3>  hi;
    inner_t inner;
    bit<8>  count;
}

header h_t {
    bool   first;   // the byte's top bit
    pair_t pair;    // 3 + 4 + 1 + 8 bits
    bit<7> rest;
}

header out_t {
    bit<8> peek;    // out: lookahead's pair.count
    bit<8> flags;   // out: 1 first, 2 pair.inner.flag
}

struct headers_t {
    h_t   h;
    out_t o;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        hdr.o.setValid();
        hdr.o.peek = packet.lookahead<h_t>().pair.count;
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
        hdr.o.flags = (hdr.h.first ? 8w1 : 8w0) | (hdr.h.pair.inner.flag ? 8w2 : 8w0);
        hdr.h.first = !hdr.h.first;
        hdr.h.pair.count = hdr.h.pair.count + 1;
        if (hdr.h.pair.hi == 7) {
            hdr.h.pair.inner = { 4w0, true };
        }
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
        packet.emit(hdr.h);
        packet.emit(hdr.o);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
