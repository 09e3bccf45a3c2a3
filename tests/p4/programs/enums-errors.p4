// Enums and errors: a plain enum kept in metadata and tested with == and ?:, a serializable
// `enum bit<8>` used as a header field type, in a parser select, cast to and from bit<8>
// (including a value with no member) and written into the packet, and custom errors raised by
// verify() in the parser and compared in ingress, next to the built-in PacketTooShort.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

enum Color { Red, Green, Blue }

enum bit<8> Kind {
    Small = 1,
    Large = 2,
    Huge  = 0x10
}

error {
    BadVersion,
    ReservedSet
}

// Results, filled by ingress (always extracted: the input carries placeholder bytes).
header res_t {
    bit<8> err_code;    // 0 NoError, 1 BadVersion, 2 ReservedSet, 3 PacketTooShort, EE other
    bit<8> color_out;   // Red 0A, Green 0B, Blue 0C
    bit<8> kind_out;    // (bit<8>)((Kind)raw) + 1, or FF when p is invalid
    bit<8> flags;       // see ingress, or FF when p is invalid
}

header p_t {
    bit<4> version;     // must be 4
    bit<4> rsvd;        // must be 0
    Kind   kind;        // Large: a q_t follows; Small is rewritten to Huge by ingress
    bit<8> raw;         // cast to Kind; also picks the color: 0 Red, 1..7F Green, 80..FF Blue
}

header q_t {
    bit<16> val;        // ingress inverts it
}

struct headers_t {
    res_t res;
    p_t   p;
    q_t   q;
}

struct metadata_t {
    Color color;
    Color color2;
    error err;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.res);
        packet.extract(hdr.p);
        verify(hdr.p.version == 4, error.BadVersion);
        verify(hdr.p.rsvd == 0, error.ReservedSet);
        transition select(hdr.p.kind) {
            Kind.Large: parse_q;
            default: accept;
        }
    }

    state parse_q {
        packet.extract(hdr.q);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        meta.err = standard_metadata.parser_error;
        if (meta.err == error.NoError) {
            hdr.res.err_code = 0;
        } else if (meta.err == error.BadVersion) {
            hdr.res.err_code = 1;
        } else if (meta.err == error.ReservedSet) {
            hdr.res.err_code = 2;
        } else if (meta.err == error.PacketTooShort) {
            hdr.res.err_code = 3;
        } else {
            hdr.res.err_code = 0xEE;
        }

        if (hdr.p.isValid()) {
            if (hdr.p.raw == 0) {
                meta.color = Color.Red;
            } else if (hdr.p.raw < 0x80) {
                meta.color = Color.Green;
            } else {
                meta.color = Color.Blue;
            }
            meta.color2 = (meta.color == Color.Red) ? Color.Blue : meta.color;

            Kind k = (Kind)hdr.p.raw;
            hdr.res.kind_out = (bit<8>)k + 1;
            hdr.res.flags = (hdr.q.isValid() ? 1w1 : 1w0)
                            ++ (meta.err == error.NoError ? 1w1 : 1w0)
                            ++ (k == Kind.Small ? 1w1 : 1w0)
                            ++ (k == Kind.Large ? 1w1 : 1w0)
                            ++ (k == Kind.Huge ? 1w1 : 1w0)
                            ++ (hdr.p.kind == k ? 1w1 : 1w0)
                            ++ (meta.color2 == Color.Blue ? 1w1 : 1w0)
                            ++ (meta.color != Color.Blue ? 1w1 : 1w0);
            if (k == Kind.Small) {
                hdr.p.kind = Kind.Huge;
            }
        } else {
            meta.color = Color.Blue;
            hdr.res.kind_out = 0xFF;
            hdr.res.flags = 0xFF;
        }
        hdr.res.color_out = meta.color == Color.Red ? 8w0x0A
                          : (meta.color == Color.Green ? 8w0x0B : 8w0x0C);

        if (hdr.q.isValid()) {
            hdr.q.val = ~hdr.q.val;
        }

        if (meta.err != error.NoError) {
            standard_metadata.egress_spec = 2;
        } else {
            standard_metadata.egress_spec = 1;
        }
        if (hdr.p.isValid() && meta.color == Color.Blue && hdr.p.kind == Kind.Huge) {
            mark_to_drop(standard_metadata);
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
        packet.emit(hdr.res);
        packet.emit(hdr.p);
        packet.emit(hdr.q);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
