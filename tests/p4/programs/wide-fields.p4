// 128-bit fields (IPv6-address sized): an exact table key, a 128-bit action parameter, copies
// between fields, == and != between fields and against a 128-bit constant, and a
// register<bit<128>> written from and read into packet fields.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const bit<128> DOC_ADDR = 128w0x20010db8000000000000000000000001;   // 2001:db8::1

header w_t {
    bit<8>   op;        // 1: wreg[0] = src; 2: copy = wreg[1]; 3: copy = wreg[0]
    bit<128> src;
    bit<128> dst;
    bit<128> copy;      // out: dst, or a register cell (op 2, 3)
    bit<8>   flags;     // out: src==dst | copy==dst | src!=dst | hit | dst==DOC_ADDR | 000
    bit<16>  tag;       // out: set_tag's tag
}   // 52 bytes

struct headers_t {
    w_t w;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.w);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<128>>(4) wreg;

    action set_tag(bit<16> tag, bit<9> port) {
        hdr.w.tag = tag;
        standard_metadata.egress_spec = port;
    }

    action set_src(bit<128> addr) {
        hdr.w.src = addr;
        standard_metadata.egress_spec = 3;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table by_dst {
        key = {
            hdr.w.dst: exact;
        }
        actions = {
            set_tag;
            set_src;
            drop;
        }
        default_action = drop();
        size = 64;
    }

    apply {
        hdr.w.copy = hdr.w.dst;
        if (hdr.w.op == 1) {
            wreg.write(0, hdr.w.src);
        } else if (hdr.w.op == 2) {
            wreg.read(hdr.w.copy, 1);
        } else if (hdr.w.op == 3) {
            wreg.read(hdr.w.copy, 0);
        }
        bool hit = by_dst.apply().hit;
        hdr.w.flags = (hdr.w.src == hdr.w.dst ? 1w1 : 1w0)
                      ++ (hdr.w.copy == hdr.w.dst ? 1w1 : 1w0)
                      ++ (hdr.w.src != hdr.w.dst ? 1w1 : 1w0)
                      ++ (hit ? 1w1 : 1w0)
                      ++ (hdr.w.dst == DOC_ADDR ? 1w1 : 1w0)
                      ++ 3w0;
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
        packet.emit(hdr.w);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
