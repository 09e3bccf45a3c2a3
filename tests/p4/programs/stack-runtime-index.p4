// Header stack indexes known only at run time: hdr.s[i] read (a field, isValid()) and written
// (a field, setValid()/setInvalid(), a whole element), in a control and in an action (the index
// an action parameter). Out of range (P4 leaves it unspecified): a read gives an invalid
// element whose fields are zero, a write is dropped (p4/compiler/README.md).
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header pre_t {
    bit<8> i;       // the index
    bit<8> op;      // 0: s[i].v = s[i].v + 1; 1: s[i].setInvalid(); 2: s[i] = s[0];
                    // 3: s[i].setValid(), s[i].v = 0x77; 4: set(i + 1) through an action
    bit<8> v;       // out: s[i].v as read before op (0 when out of range)
    bit<8> valid;   // out: 1 if s[i].isValid() before op
}

header s_t {
    bit<8> v;
}

struct headers_t {
    pre_t  pre;
    s_t[3] s;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.pre);
        packet.extract(hdr.s.next);
        packet.extract(hdr.s.next);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action set(bit<8> at) {
        hdr.s[at].setValid();
        hdr.s[at].v = 0x99;
    }

    apply {
        hdr.pre.v = hdr.s[hdr.pre.i].v;
        hdr.pre.valid = hdr.s[hdr.pre.i].isValid() ? 8w1 : 8w0;
        if (hdr.pre.op == 0) {
            hdr.s[hdr.pre.i].v = hdr.s[hdr.pre.i].v + 1;
        } else if (hdr.pre.op == 1) {
            hdr.s[hdr.pre.i].setInvalid();
        } else if (hdr.pre.op == 2) {
            hdr.s[hdr.pre.i] = hdr.s[0];
        } else if (hdr.pre.op == 3) {
            hdr.s[hdr.pre.i].setValid();
            hdr.s[hdr.pre.i].v = 0x77;
        } else if (hdr.pre.op == 4) {
            set(hdr.pre.i + 1);
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
        packet.emit(hdr.pre);
        packet.emit(hdr.s);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
