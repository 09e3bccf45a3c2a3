// Header validity: op bits 0/1 say whether opt/tail are in the input; its high nibble picks what
// ingress does: setValid + initialize a header the input lacks (the packet grows), setInvalid
// on parsed headers (it shrinks). isValid is reported in base.info and tested in egress; the
// payload after the parsed headers must come out unchanged.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header base_t  { bit<8> op; bit<8> info; }               // info: validity bits, set by ingress
header ins_t   { bit<8> tag; bit<16> len; bit<8> flags; } // never parsed; inserted after base
header opt_t   { bit<16> val; }
header tail_t  { bit<8> t; }
header trl_t   { bit<8> x; }                             // never parsed; inserted after tail

struct headers_t {
    base_t base;
    ins_t  ins;
    opt_t  opt;
    tail_t tail;
    trl_t  trl;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.base);
        transition select(hdr.base.op) {
            0x01 &&& 0x01: parse_opt;
            0x02 &&& 0x02: parse_tail;
            default: accept;
        }
    }

    state parse_opt {
        packet.extract(hdr.opt);
        transition select(hdr.base.op[1:1]) {
            1: parse_tail;
            default: accept;
        }
    }

    state parse_tail {
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
        if (standard_metadata.parser_error != error.NoError) {
            mark_to_drop(standard_metadata);
            return;
        }
        bit<4> act = hdr.base.op[7:4];
        if (act == 0xF) {
            mark_to_drop(standard_metadata);
            return;
        }
        // 1, 3: insert ins (its flags record whether opt was valid at that point).
        if (act == 1 || act == 3) {
            hdr.ins.setValid();
            hdr.ins.tag = 0xA5;
            hdr.ins.len = (bit<16>)standard_metadata.packet_length;
            hdr.ins.flags = hdr.opt.isValid() ? 8w0x01 : 8w0x00;
        }
        // 2, 3: remove opt. 4: remove opt and tail.
        if (act == 2 || act == 3 || act == 4) {
            hdr.opt.setInvalid();
        }
        if (act == 4) {
            hdr.tail.setInvalid();
        }
        // 5: append trl after tail.
        if (act == 5) {
            hdr.trl.setValid();
            hdr.trl.x = 0x7E;
        }
        hdr.base.info = (hdr.opt.isValid() ? 8w0x01 : 8w0)
                      | (hdr.tail.isValid() ? 8w0x02 : 8w0)
                      | (hdr.ins.isValid() ? 8w0x04 : 8w0)
                      | (hdr.trl.isValid() ? 8w0x08 : 8w0);
        standard_metadata.egress_spec = hdr.ins.isValid() ? 9w2 : 9w1;
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        // The header made valid in ingress is still valid here.
        if (hdr.ins.isValid()) {
            hdr.ins.flags = hdr.ins.flags | 0x80;
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.base);
        packet.emit(hdr.ins);
        packet.emit(hdr.opt);
        packet.emit(hdr.tail);
        packet.emit(hdr.trl);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
