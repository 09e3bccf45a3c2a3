// Tables: exact with const entries and a default action with arguments, switched on action_run
// (fall-through and default labels); lpm filled by the control plane (longest prefix wins,
// .miss); two-field ternary with priorities (.hit); an action with parameters of five widths.
// Results go into res_t; every packet leaves on port 1 unless the acl denies it.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header req_t {
    bit<8>  op;     // classify key (exact), acl key (ternary)
    bit<32> addr;   // route key (lpm)
    bit<16> flags;  // acl key (ternary)
}

header res_t {
    bit<8>  cls;    // set_class / set_pair
    bit<8>  sw;     // classify's action_run: 1 set_class, 2 set_fields or set_pair, 3 default label
    bit<8>  route;  // set_route
    bit<8>  acl;    // permit code
    bit<8>  bits;   // 0x01 route missed, 0x02 acl hit, 0x04 acl missed
    bit<4>  a4;     // set_fields
    bit<12> b12;
    bit<16> c16;
    bit<32> d32;    // set_fields, set_pair
    bit<48> e48;
}

struct headers_t {
    req_t req;
    res_t res;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.req);
        packet.extract(hdr.res);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action set_class(bit<8> c) {
        hdr.res.cls = c;
    }

    action set_fields(bit<4> a, bit<12> b, bit<16> c, bit<32> d, bit<48> e) {
        hdr.res.a4 = a;
        hdr.res.b12 = b;
        hdr.res.c16 = c;
        hdr.res.d32 = d;
        hdr.res.e48 = e;
    }

    action set_pair(bit<8> c, bit<32> d) {
        hdr.res.cls = c;
        hdr.res.d32 = d;
    }

    action set_route(bit<8> r) {
        hdr.res.route = r;
    }

    action permit(bit<8> code) {
        hdr.res.acl = code;
    }

    action deny() {
        hdr.res.acl = 0xDD;
        mark_to_drop(standard_metadata);
    }

    table classify {
        key = {
            hdr.req.op: exact;
        }
        actions = {
            set_class;
            set_fields;
            set_pair;
            NoAction;
        }
        const entries = {
            1: set_class(10);
            2: set_class(20);
            3: set_fields(0xA, 0xBCD, 0x1234, 0xDEADBEEF, 0x010203040506);
            4: set_pair(0x44, 0x44444444);
            5: NoAction();
        }
        default_action = set_class(0xFF);
    }

    table route {
        key = {
            hdr.req.addr: lpm;
        }
        actions = {
            set_route;
            set_fields;
        }
        default_action = set_route(0xEE);
        size = 64;
    }

    table acl {
        key = {
            hdr.req.flags: ternary;
            hdr.req.op: ternary;
        }
        actions = {
            permit;
            deny;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;

        switch (classify.apply().action_run) {
            set_class: {
                hdr.res.sw = 1;
            }
            set_fields:
            set_pair: {
                hdr.res.sw = 2;
            }
            default: {
                hdr.res.sw = 3;
            }
        }

        if (route.apply().miss) {
            hdr.res.bits = hdr.res.bits | 0x01;
        }

        if (acl.apply().hit) {
            hdr.res.bits = hdr.res.bits | 0x02;
        } else {
            hdr.res.bits = hdr.res.bits | 0x04;
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
        packet.emit(hdr.req);
        packet.emit(hdr.res);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
