/*
 * A register-heavy program for the pipeline benchmark: a count-min sketch of flow keys, as
 * in-network telemetry and heavy-hitter detection build it. Each packet hashes its key into
 * four rows of 4096 counters (crc32 and crc16, each with two bases), increments all four, and
 * carries the row minimum (the estimated count) back in its header, together with a per-switch
 * sequence number. Eight register reads or writes and four hashes per packet.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const bit<32> ROW_SIZE = 4096;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sketch_t {
    bit<32> key;
    bit<32> estimate;
    bit<32> sequence;
}

struct headers_t {
    ethernet_t ethernet;
    sketch_t sketch;
}

struct metadata_t {
    bit<32> index0;
    bit<32> index1;
    bit<32> index2;
    bit<32> index3;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_sketch;
            default: accept;
        }
    }

    state parse_sketch {
        packet.extract(hdr.sketch);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(ROW_SIZE) row0;
    register<bit<32>>(ROW_SIZE) row1;
    register<bit<32>>(ROW_SIZE) row2;
    register<bit<32>>(ROW_SIZE) row3;
    register<bit<32>>(1) sequence;

    apply {
        standard_metadata.egress_spec = 1;
        if (!hdr.sketch.isValid()) {
            return;
        }
        hash(meta.index0, HashAlgorithm.crc32, 32w0, { hdr.sketch.key, 8w0 }, ROW_SIZE);
        hash(meta.index1, HashAlgorithm.crc32, 32w0, { hdr.sketch.key, 8w1 }, ROW_SIZE);
        hash(meta.index2, HashAlgorithm.crc16, 32w0, { hdr.sketch.key, 8w2 }, ROW_SIZE);
        hash(meta.index3, HashAlgorithm.crc16, 32w0, { hdr.sketch.key, 8w3 }, ROW_SIZE);
        bit<32> c0;
        bit<32> c1;
        bit<32> c2;
        bit<32> c3;
        row0.read(c0, meta.index0);
        row1.read(c1, meta.index1);
        row2.read(c2, meta.index2);
        row3.read(c3, meta.index3);
        c0 = c0 + 1;
        c1 = c1 + 1;
        c2 = c2 + 1;
        c3 = c3 + 1;
        row0.write(meta.index0, c0);
        row1.write(meta.index1, c1);
        row2.write(meta.index2, c2);
        row3.write(meta.index3, c3);
        bit<32> low01 = c0 < c1 ? c0 : c1;
        bit<32> low23 = c2 < c3 ? c2 : c3;
        hdr.sketch.estimate = low01 < low23 ? low01 : low23;
        bit<32> next;
        sequence.read(next, 0);
        hdr.sketch.sequence = next;
        sequence.write(0, next + 1);
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
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sketch);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
