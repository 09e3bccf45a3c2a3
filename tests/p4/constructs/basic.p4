// The front end's smoke test: a small v1model program that uses most of incsim's P4 subset.
// It must parse with no diagnostics (and is written so that p4c accepts it as well).
#include <core.p4>
#include <v1model.p4>

#define FLOW_SLOTS 1024

const bit<16> TYPE_IPV4 = 0x800;
const bit<8> PROTO_UDP = 17;

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;

enum bit<8> Verdict {
    Pass = 1,
    Drop = 2
}

error {
    BadIpv4Version
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4> version;
    bit<4> ihl;
    bit<8> diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3> flags;
    bit<13> frag_offset;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

header tag_t {
    bit<8> value;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t ipv4;
    udp_t udp;
    tag_t[4] tags;
}

struct metadata_t {
    bit<16> flow_slot;
    bit<32> packets_seen;
    bool is_udp;
    Verdict verdict;
}

parser MyParser(packet_in packet,
                out headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            TYPE_IPV4: parse_ipv4;
            0x8100 &&& 0xEFFF: parse_tags;
            default: accept;
        }
    }

    state parse_tags {
        packet.extract(hdr.tags.next);
        transition select(packet.lookahead<bit<8>>()) {
            0 .. 0x7f: parse_tags;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        verify(hdr.ipv4.version == 4w4, error.BadIpv4Version);
        transition select(hdr.ipv4.protocol, hdr.ipv4.frag_offset) {
            (PROTO_UDP, 0): parse_udp;
            (_, _): accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        meta.is_udp = true;
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
                        { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
                          hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
                          hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
                          hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
                        hdr.ipv4.hdr_checksum,
                        HashAlgorithm.csum16);
    }
}

control MyIngress(inout headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(FLOW_SLOTS) flow_packets;
    counter(32w64, CounterType.packets) port_packets;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action forward(mac_addr_t dst_addr, bit<9> port) {
        standard_metadata.egress_spec = port;
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = dst_addr;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action set_verdict(Verdict verdict) {
        meta.verdict = verdict;
    }

    table ipv4_lpm {
        key = {
            hdr.ipv4.dst_addr: lpm;
            standard_metadata.ingress_port: exact @name("in_port");
        }
        actions = {
            forward;
            drop;
            @defaultonly NoAction;
        }
        size = 1024;
        default_action = NoAction();
    }

    table classify {
        key = {
            hdr.ipv4.protocol: exact;
            hdr.udp.dst_port: ternary;
        }
        actions = {
            set_verdict;
        }
        const entries = {
            (PROTO_UDP, 16w53 &&& 16w0xffff): set_verdict(Verdict.Pass);
            (_, _): set_verdict(Verdict.Drop);
        }
        default_action = set_verdict(Verdict.Pass);
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            exit;
        }
        port_packets.count((bit<32>)standard_metadata.ingress_port);
        hash(meta.flow_slot,
             HashAlgorithm.crc16,
             16w0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol },
             32w1024);
        flow_packets.read(meta.packets_seen, (bit<32>)meta.flow_slot);
        meta.packets_seen = meta.packets_seen + 1;
        flow_packets.write((bit<32>)meta.flow_slot, meta.packets_seen);

        switch (ipv4_lpm.apply().action_run) {
            forward: {
                if (hdr.ipv4.ttl == 0) {
                    drop();
                } else if (meta.is_udp && classify.apply().hit) {
                    hdr.ipv4.diffserv = hdr.ipv4.diffserv[7:2] ++ 2w0;
                }
            }
            drop: {
                return;
            }
            default: {
            }
        }
        if (meta.verdict == Verdict.Drop || hdr.ipv4.ttl < 2) {
            drop();
        }
        bit<8> shifted = (hdr.ipv4.ttl >> 1) | (hdr.ipv4.protocol << 2);
        hdr.ipv4.diffserv = meta.is_udp ? shifted : ~shifted & 8w0xfc;
    }
}

control MyEgress(inout headers_t hdr,
                 inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        if (hdr.tags[0].isValid()) {
            hdr.tags[0].setInvalid();
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
                        { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
                          hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
                          hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
                          hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
                        hdr.ipv4.hdr_checksum,
                        HashAlgorithm.csum16);
    }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.tags);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
    }
}

V1Switch(MyParser(),
         MyVerifyChecksum(),
         MyIngress(),
         MyEgress(),
         MyComputeChecksum(),
         MyDeparser()) main;
