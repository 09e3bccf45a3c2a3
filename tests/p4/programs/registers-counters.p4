// Registers and counters: per-ingress-port packet count and byte sum kept in register<bit<32>>
// (read-modify-write, the new values written into the packet), a register<bit<16>> written
// from packet data (an out-of-range index is ignored), and a packets_and_bytes counter.
// op 2 drops the packet after everything has been counted. Output: port 9.
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

header reg_t {
    bit<8>  op;         // 1: data_reg[idx] = val; 2: drop; 3: also count at index 100 (ignored)
    bit<8>  idx;        // data_reg index (size 4; writes at 4 and above are ignored)
    bit<16> val;
    bit<32> count;      // out: pkt_count[ingress_port] after this packet
    bit<32> bytes;      // out: byte_sum[ingress_port] after this packet
    bit<16> data;       // out: data_reg[idx & 3] after the write
}

struct headers_t {
    reg_t r;
}

struct metadata_t { }

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.r);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(8) pkt_count;
    register<bit<32>>(8) byte_sum;
    register<bit<16>>(4) data_reg;
    counter(8, CounterType.packets_and_bytes) port_counter;

    action account(bit<32> port) {
        bit<32> c;
        pkt_count.read(c, port);
        c = c + 1;
        pkt_count.write(port, c);
        hdr.r.count = c;
    }

    apply {
        bit<32> port = (bit<32>)standard_metadata.ingress_port;
        account(port);

        bit<32> b;
        byte_sum.read(b, port);
        b = b + standard_metadata.packet_length;
        byte_sum.write(port, b);
        hdr.r.bytes = b;

        if (hdr.r.op == 1) {
            data_reg.write((bit<32>)hdr.r.idx, hdr.r.val);
        }
        bit<16> d;
        data_reg.read(d, (bit<32>)(hdr.r.idx & 3));
        hdr.r.data = d;

        port_counter.count(port);
        if (hdr.r.op == 3) {
            port_counter.count(100);    // out of range: ignored
        }

        if (hdr.r.op == 2) {
            mark_to_drop(standard_metadata);
        } else {
            standard_metadata.egress_spec = 9;
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
        packet.emit(hdr.r);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
