// expect: range-match.p4:31:26: error: match kind 'range' is outside incsim's P4 subset: incsim tables match exact, lpm, ternary and optional
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<32> x;
}

parser MyParser(packet_in packet, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control MyVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<9> p) { sm.egress_spec = p; }
    table t {
        key = { hdr.h.a: range; }
        actions = { set; }
    }
    apply {
        t.apply();
    }
}

control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control MyCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply { packet.emit(hdr.h); }
}

V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
