// A program written for p4c's v1model version 20200408: PortId_t, and registers and counters
// that take their index type as a type parameter (register<T, I>, counter<I>), indexed here by
// bit<8> straight from the packet. The forwarding sits inside `#ifdef _CORE_P4_`, p4c's
// include guard of core.p4, as some of p4c's samples do: without the guard nothing leaves.
// Output: port 4, with the register cell before and after the packet's add.
#define V1MODEL_VERSION 20200408
#include <core.p4>
#include <v1model.p4>

header acc_t {
    bit<8>  idx;        // register index
    bit<16> add;        // added to reg[idx]
    bit<16> before;     // out: reg[idx] before
    bit<16> after;      // out: reg[idx] after
}

struct headers_t {
    acc_t a;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.a);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<16>, bit<8>>(4) acc;
    counter<bit<8>>(4, CounterType.packets) seen;

    apply {
        bit<16> v;
        acc.read(v, hdr.a.idx);
        hdr.a.before = v;
        acc.write(hdr.a.idx, v + hdr.a.add);
        acc.read(v, hdr.a.idx);
        hdr.a.after = v;
        seen.count(hdr.a.idx);
#ifdef _CORE_P4_
        PortId_t port = 4;
        standard_metadata.egress_spec = port;
#endif
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
        packet.emit(hdr.a);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
