// Parser selects: values, a mask (&&&), a range (..) and default in first-match order; a tuple
// with `_`; an empty select(); lookahead<bit<16>>() choosing without consuming; explicit
// reject, verify(), NoMatch (no default) and PacketTooShort. Ingress sends each packet,
// unchanged, to a port naming its parse path: by parser_error first, then by which headers
// are valid.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

error { BadKind }

header kind_t   { bit<8> kind; }
header val_t    { bit<8> v; }
header mask_t   { bit<8> m; }
header range_t  { bit<8> r; }
header pair_t   { bit<8> a; bit<8> b; }
header one_t    { bit<8> x; }
header two_t    { bit<8> y; }
header magic_t  { bit<16> magic; bit<16> data; }
header small_t  { bit<8> s; }
header wide_t   { bit<64> w; }
header strict_t { bit<8> s; }

struct headers_t {
    kind_t   kind;
    val_t    val;
    mask_t   mask;
    range_t  range;
    pair_t   pair;
    one_t    one;
    two_t    two;
    magic_t  magic;
    small_t  small;
    wide_t   wide;
    strict_t strict;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.kind);
        transition select(hdr.kind.kind) {
            0x01: parse_val;
            0x12: parse_val;            // before the mask case that also matches it
            0x10 &&& 0xF0: parse_mask;  // 0x10..0x1F except 0x12
            0x20 .. 0x2F: parse_range;
            0x30: parse_pair;
            0x40: parse_peek;
            0x50: parse_wide;
            0x60: parse_strict;
            0xEE: reject;
            0xEF: parse_bad;
            0x8A &&& 0x8F: parse_mask;  // bit 7 set and low nibble A: 8A 9A AA .. FA
            default: accept;
        }
    }

    state parse_val {
        packet.extract(hdr.val);
        transition select() {   // no selectors: only default can match
            default: accept;
        }
    }

    state parse_mask {
        packet.extract(hdr.mask);
        transition accept;
    }

    state parse_range {
        packet.extract(hdr.range);
        transition accept;
    }

    state parse_pair {
        packet.extract(hdr.pair);
        transition select(hdr.pair.a, hdr.pair.b) {
            (1, _): parse_one;
            (_, 2): parse_two;
            (5, 5): parse_both;
            default: accept;
        }
    }

    state parse_one {
        packet.extract(hdr.one);
        transition accept;
    }

    state parse_two {
        packet.extract(hdr.two);
        transition accept;
    }

    state parse_both {
        packet.extract(hdr.one);
        packet.extract(hdr.two);
        transition accept;
    }

    state parse_peek {
        transition select(packet.lookahead<bit<16>>()) {
            0xABCD: parse_magic;
            default: parse_small;
        }
    }

    state parse_magic {
        packet.extract(hdr.magic);
        transition accept;
    }

    state parse_small {
        packet.extract(hdr.small);
        transition accept;
    }

    state parse_wide {
        packet.extract(hdr.wide);
        transition accept;
    }

    state parse_strict {
        packet.extract(hdr.strict);
        transition select(hdr.strict.s) {
            1: accept;
            2 .. 3: parse_one;
        }
    }

    state parse_bad {
        verify(false, error.BadKind);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        bit<9> port = 20;                           // kind only: default, or explicit reject
        if (standard_metadata.parser_error == error.PacketTooShort) {
            port = 11;
        } else if (standard_metadata.parser_error == error.NoMatch) {
            port = 12;
        } else if (standard_metadata.parser_error == error.BadKind) {
            port = 10;
        } else if (standard_metadata.parser_error != error.NoError) {
            port = 13;
        } else if (hdr.val.isValid()) {
            port = 1;
        } else if (hdr.mask.isValid()) {
            port = 2;
        } else if (hdr.range.isValid()) {
            port = 3;
        } else if (hdr.pair.isValid()) {
            if (hdr.one.isValid() && hdr.two.isValid()) {
                port = 6;
            } else if (hdr.one.isValid()) {
                port = 4;
            } else if (hdr.two.isValid()) {
                port = 5;
            } else {
                port = 7;
            }
        } else if (hdr.magic.isValid()) {
            port = 8;
        } else if (hdr.small.isValid()) {
            port = 9;
        } else if (hdr.wide.isValid()) {
            port = 14;
        } else if (hdr.strict.isValid()) {
            port = hdr.one.isValid() ? 9w16 : 9w15;
        } else if (!hdr.kind.isValid()) {
            port = 21;
        }
        standard_metadata.egress_spec = port;
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
        packet.emit(hdr.kind);
        packet.emit(hdr.val);
        packet.emit(hdr.mask);
        packet.emit(hdr.range);
        packet.emit(hdr.pair);
        packet.emit(hdr.one);
        packet.emit(hdr.two);
        packet.emit(hdr.magic);
        packet.emit(hdr.small);
        packet.emit(hdr.wide);
        packet.emit(hdr.strict);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
