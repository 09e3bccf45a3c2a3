// varbit: an options header whose length a length byte gives (extract(hdr, bits)), emitted with
// the length it was extracted with; a second varbit header with fixed fields before and after
// the varbit; assignment of a varbit and of a whole header with one; == and != on varbits; a
// checksum over a field list that ends in a varbit; minSizeInBits/maxSizeInBytes. The parser's errors, as
// BMv2 raises them: a length that is not whole bytes is ParserInvalidArgument, one above the
// varbit's maximum HeaderTooShort, one past the packet's end PacketTooShort.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header pre_t {
    bit<8> op;      // 1: opt2.data = opt.data; 2: copy = opt (the whole header); 3: invalidate opt
    bit<8> bits;    // length of opt.data in bits
    bit<8> bits2;   // length of opt2.data in bits
    bit<8> code;    // out: 0 NoError, 1 PacketTooShort, 4 HeaderTooShort, 6 ParserInvalidArgument
    bit<8> same;    // out: 1 if opt.data == opt2.data, 2 if !=, 0 if either is invalid
    bit<8> sizes;   // out: 11 if minSizeInBits/maxSizeInBytes are as expected, else EE
    bit<16> sum;    // out: csum16 over { pre.op, pre.bits, opt.data } (compute checksum)
}

header opt_t {
    varbit<32> data;
}

header opt2_t {
    bit<8> kind;
    varbit<32> data;
    bit<8> end;      // after the varbit: at an offset known only at run time
}

struct headers_t {
    pre_t  pre;
    opt_t  opt;
    opt2_t opt2;
    opt_t  copy;     // never extracted; op 2 assigns it
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.pre);
        packet.extract(hdr.opt, (bit<32>)hdr.pre.bits);
        packet.extract(hdr.opt2, (bit<32>)hdr.pre.bits2);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.NoError) {
            hdr.pre.code = 0;
        } else if (standard_metadata.parser_error == error.PacketTooShort) {
            hdr.pre.code = 1;
        } else if (standard_metadata.parser_error == error.HeaderTooShort) {
            hdr.pre.code = 4;
        } else if (standard_metadata.parser_error == error.ParserInvalidArgument) {
            hdr.pre.code = 6;
        } else {
            hdr.pre.code = 0xEE;
        }
        hdr.pre.same = 0;
        if (hdr.opt.isValid() && hdr.opt2.isValid()) {
            if (hdr.opt.data == hdr.opt2.data) {
                hdr.pre.same = 1;
            }
            if (hdr.opt.data != hdr.opt2.data) {
                hdr.pre.same = hdr.pre.same + 2;
            }
        }
        // opt_t: 0 bits at least, 4 bytes at most; opt2_t: 16 bits, 6 bytes.
        if (hdr.opt.minSizeInBits() == 0 && hdr.opt.maxSizeInBytes() == 4 &&
            hdr.opt2.minSizeInBits() == 16 && hdr.opt2.maxSizeInBytes() == 6) {
            hdr.pre.sizes = 0x11;
        } else {
            hdr.pre.sizes = 0xEE;
        }
        if (hdr.pre.op == 1) {
            hdr.opt2.data = hdr.opt.data;
        } else if (hdr.pre.op == 2) {
            hdr.copy = hdr.opt;
        } else if (hdr.pre.op == 3) {
            hdr.opt.setInvalid();
        }
        standard_metadata.egress_spec = 1;
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.opt.isValid(), { hdr.pre.op, hdr.pre.bits, hdr.opt.data },
                        hdr.pre.sum, HashAlgorithm.csum16);
    }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.pre);
        packet.emit(hdr.opt);
        packet.emit(hdr.opt2);
        packet.emit(hdr.copy);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
