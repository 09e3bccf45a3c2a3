// lookahead<T> of types that are not headers: a struct (bit fields, a bool, a header inside), a
// bool, and a value wider than 64 bits; and extract<H>(_), which skips a header. Nothing is consumed by
// lookahead: the extracts after it read the same bytes.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
}

struct ahead_t {
    bool flag;      // the first bit
    bit<3> kind;    // the next three
    bit<12> rest;   // to the end of byte 1
    in_t inner;     // bytes 2 and 3
}

header skip_t {
    bit<16> unused;
}

header out_t {
    bit<8> flag;
    bit<8> kind;
    bit<16> rest;
    bit<8> innerA;
    bit<8> innerValid;
    bit<8> wideHigh;  // bits 79..72 of the first 80 bits
    bit<8> wideLow;   // bits 7..0
    bit<8> first;     // lookahead<bool>: the first bit
}

struct headers_t {
    out_t o;
    in_t tail;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        ahead_t ahead = packet.lookahead<ahead_t>();
        bit<80> wide = packet.lookahead<bit<80>>();
        bool first = packet.lookahead<bool>();
        hdr.o.setValid();
        hdr.o.flag = (bit<8>)(bit<1>)ahead.flag;
        hdr.o.kind = (bit<8>)ahead.kind;
        hdr.o.rest = (bit<16>)ahead.rest;
        hdr.o.innerA = ahead.inner.a;
        hdr.o.innerValid = ahead.inner.isValid() ? 8w1 : 8w0;
        hdr.o.wideHigh = wide[79:72];
        hdr.o.wideLow = wide[7:0];
        hdr.o.first = first ? 8w0xF1 : 8w0xF0;
        packet.extract<skip_t>(_);
        packet.extract(hdr.tail);
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
        packet.emit(hdr.o);
        packet.emit(hdr.tail);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
