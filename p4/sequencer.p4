/*
 * sequencer.p4: the in-network sequencer baseline of 1Pipe's Fig. 8 (a centralized sequencer
 * on a programmable switch, as in Eris/NOPaxos): every broadcast detours through one switch,
 * which stamps a global sequence number and replicates the packet to every receiving process.
 * Forwarding is lib/ecmp.p4's.
 *
 * A broadcast is one UDP packet to port SEQUENCER_PORT carrying the baseline header. A switch
 * that is not the sequencer sends it one hop towards the sequencer (toward_port). The
 * sequencer stamps key := ++next_sequence and multicasts it (group RECEIVERS_GROUP), one
 * replica per process (replication id = process + 1) on the port towards its host. In egress
 * each replica is readdressed to its process (table receivers); the sender gets one too, to
 * learn its broadcast's place. Replicas then travel by ordinary ECMP and receivers deliver in
 * key order.
 *
 * Control-plane contract:
 *   MyIngress.sequencer_config  keyless; default action configure(is_sequencer, toward_port).
 *   MyEgress.receivers          key egress_rid (exact): to_process(addr, udp_port).
 *   multicast group RECEIVERS_GROUP on the sequencer: (port towards the host, process + 1).
 *   MyIngress.next_sequence     register<bit<64>>(1): the last sequence number handed out.
 *   lib/ecmp.p4's tables for routes.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

const bit<16> SEQUENCER_PORT = 0x5000;
const bit<16> RECEIVERS_GROUP = 1;
const bit<8> KIND_SEQUENCED = 2;

header baseline_t {
    bit<8>  kind;
    bit<8>  flags;
    bit<16> reserved;
    bit<32> src;        // the sending process
    bit<32> sequence;   // the sender's first per-destination message sequence number
    bit<64> key;        // the delivery order: here, the global sequence number
    bit<32> bytes;      // message size
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
    baseline_t baseline;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
    bit<1> is_sequencer;
    bit<9> toward_port;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IPPROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dstPort) {
            SEQUENCER_PORT: parse_baseline;
            default: accept;
        }
    }

    state parse_baseline {
        packet.extract(hdr.baseline);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    ECMP_DECLARATIONS

    register<bit<64>>(1) next_sequence;

    action configure(bit<1> is_sequencer, bit<9> toward_port) {
        meta.is_sequencer = is_sequencer;
        meta.toward_port = toward_port;
    }

    table sequencer_config {
        actions = { configure; }
        default_action = configure(0, 0);
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);
            return;
        }
        if (hdr.baseline.isValid()) {
            sequencer_config.apply();
            if (meta.is_sequencer == 1) {
                bit<64> key;
                next_sequence.read(key, 0);
                key = key + 1;
                next_sequence.write(0, key);
                hdr.baseline.key = key;
                hdr.baseline.kind = KIND_SEQUENCED;
                standard_metadata.mcast_grp = RECEIVERS_GROUP;
            } else {
                standard_metadata.egress_spec = meta.toward_port;
            }
            return;
        }
        ECMP_FORWARD()
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    action to_process(bit<32> addr, bit<16> udp_port) {
        hdr.ipv4.dstAddr = addr;
        hdr.udp.dstPort = udp_port;
    }

    table receivers {
        key = { standard_metadata.egress_rid: exact; }
        actions = { to_process; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.baseline.isValid() && standard_metadata.egress_rid != 0) {
            receivers.apply();
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        IPV4_UPDATE_CHECKSUM(hdr.ipv4);
    }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.baseline);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
