/*
 * eris.p4: Eris's in-switch multi-sequencer (Li, Michael, Ports, SOSP'17), the baseline that
 * SwitchTx (PVLDB 15(11) 2022, §2.4, §5.1) compares against. docs/eris.md has the header layout
 * against the parser's 224-byte budget, the registers, and each design choice.
 *
 * An independent transaction is one UDP packet to port ERIS_PORT carrying an eris_t and a
 * stamp vector: one 4-byte stamp slot per shard 0 .. slots-1 (a shard is a server thread),
 * and the bitmap dests of the shards it goes to. A switch that is not the sequencer sends it
 * one hop towards the sequencer (toward_port). The sequencer stamps slot s of every
 * destination s with ++shard_seq_s, writes its session number, marks the message
 * TYPE_SEQUENCED and multicasts it to ERIS_SHARDS_GROUP, one replica per shard
 * (replication id = shard + 1). In egress a replica for a shard outside dests is pruned and
 * the others are readdressed to their shard (table eris_receivers); they then travel by ECMP.
 * Receivers deliver in stamp order and detect gaps; what a gap means is the hosts' business.
 *
 * One pass, as a Tofino does it: each shard's counter is its own register array of one cell,
 * read and written at most once per packet, and stamp slot s is shard s's, so which array
 * feeds which slot is fixed by the program. A single array indexed by a list of shard ids
 * would need one access per destination (recirculation), and interleaved passes of two
 * transactions could then order them differently at two shards.
 *
 * The header limit: the parser extracts at most ERIS_MAX_SHARDS slots, the paper's 40; a
 * message claiming more is dropped (EVENT_HEADER_LIMIT), as is one whose dests are empty,
 * name a shard beyond its slots, or that is cut short (EVENT_MALFORMED). Every other
 * packet, and an Eris message of another type (a sequenced replica, a host's reply), is
 * forwarded as forward.p4 forwards it.
 *
 * Control-plane contract:
 *   MyIngress.eris_config      keyless; default action configure(is_sequencer, toward_port,
 *                              session): the sequencer switch, the port towards it (on the
 *                              other switches) and the sequencer's session number. Until it
 *                              is set, transactions are dropped (EVENT_UNCONFIGURED).
 *   MyIngress.shard_seq_S      register<bit<32>>(1), S = 0 .. 39: the last stamp of shard S
 *                              (reset all of them with a new session).
 *   MyIngress.eris_events      counter(5, packets), indexed by EVENT_*.
 *   MyEgress.eris_receivers    key egress_rid (exact): to_shard(addr, udp_port), the host
 *                              address and UDP port of replica (rid - 1) / 64 of shard
 *                              (rid - 1) mod 64.
 *   MyEgress.eris_replicas     counter(3, packets), indexed by REPLICA_*.
 *   multicast group ERIS_SHARDS_GROUP on the sequencer: one node per shard replica (rid
 *                              replica * 64 + shard + 1, the port towards its host).
 *   lib/ecmp.p4's tables for routes.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

const bit<16> ERIS_PORT = 0x4552;
const bit<16> ERIS_SHARDS_GROUP = 1;

/* Stamp slots a switch parses: 224 bytes of header hold 40 after Ethernet, IPv4, UDP and
 * eris_t (42 + 20 + 4 * 40 = 222). shard_seq_0 .. shard_seq_39 and ERIS_STAMP below follow. */
const bit<8> ERIS_MAX_SHARDS = 40;

const bit<8> TYPE_TXN = 1;          // a client's transaction, to be sequenced
const bit<8> TYPE_SEQUENCED = 2;    // stamped by the sequencer, on its way to a shard

const bit<32> EVENT_SEQUENCED = 0;          // stamped and multicast
const bit<32> EVENT_TOWARD_SEQUENCER = 1;   // sent one hop towards the sequencer
const bit<32> EVENT_HEADER_LIMIT = 2;       // dropped: more than ERIS_MAX_SHARDS slots
const bit<32> EVENT_MALFORMED = 3;          // dropped: no destination, a destination
                                            // without its slot, or cut short
const bit<32> EVENT_UNCONFIGURED = 4;       // dropped: eris_config was never set here

const bit<32> REPLICA_DELIVERED = 0;        // readdressed to its shard
const bit<32> REPLICA_PRUNED = 1;           // its shard is not a destination
const bit<32> REPLICA_NO_RECEIVER = 2;      // dropped: eris_receivers has no entry for it

header eris_t {
    bit<8>  msg_type;
    bit<8>  slots;      // stamp slots that follow: shards 0 .. slots - 1
    bit<16> sender;     // the client thread
    bit<32> session;    // the sequencer's session number, written by the sequencer
    bit<32> txn_id;     // the sender's transaction number
    bit<64> dests;      // bit s: shard s is a destination
}

header eris_stamp_t {
    bit<32> seq;        // shard s's sequence number for this transaction (0: not stamped)
}

struct headers_t {
    ethernet_t   ethernet;
    ipv4_t       ipv4;
    udp_t        udp;
    eris_t       eris;
    eris_stamp_t[ERIS_MAX_SHARDS] stamps;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
    bit<8>  slots_left;   // parser: stamp slots still to extract
    bit<1>  configured;
    bit<1>  is_sequencer;
    bit<9>  toward_port;
    bit<32> session;
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
            ERIS_PORT: parse_eris;
            default: accept;
        }
    }

    state parse_eris {
        packet.extract(hdr.eris);
        meta.slots_left = hdr.eris.slots;
        transition select(hdr.eris.slots) {
            0: accept;
            default: parse_stamp;
        }
    }

    // The header limit: after ERIS_MAX_SHARDS slots the parser stops, and ingress drops a
    // message that claims more.
    state parse_stamp {
        packet.extract(hdr.stamps.next);
        meta.slots_left = meta.slots_left - 1;
        transition select(meta.slots_left, hdr.stamps.lastIndex) {
            (0, _): accept;
            (_, (bit<32>)ERIS_MAX_SHARDS - 1): accept;
            default: parse_stamp;
        }
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

/* Shard s's counter and its stamp: one register array per shard, touched once per packet. */
#define ERIS_SHARD_REGISTER(s) register<bit<32>>(1) shard_seq_##s;
#define ERIS_STAMP(s)                                                           \
    if (hdr.eris.dests[s:s] == 1) {                                             \
        bit<32> seq_##s;                                                        \
        shard_seq_##s.read(seq_##s, 0);                                         \
        seq_##s = seq_##s + 1;                                                  \
        shard_seq_##s.write(0, seq_##s);                                        \
        hdr.stamps[s].seq = seq_##s;                                            \
    }

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    ECMP_DECLARATIONS

    ERIS_SHARD_REGISTER(0)  ERIS_SHARD_REGISTER(1)  ERIS_SHARD_REGISTER(2)
    ERIS_SHARD_REGISTER(3)  ERIS_SHARD_REGISTER(4)  ERIS_SHARD_REGISTER(5)
    ERIS_SHARD_REGISTER(6)  ERIS_SHARD_REGISTER(7)  ERIS_SHARD_REGISTER(8)
    ERIS_SHARD_REGISTER(9)  ERIS_SHARD_REGISTER(10) ERIS_SHARD_REGISTER(11)
    ERIS_SHARD_REGISTER(12) ERIS_SHARD_REGISTER(13) ERIS_SHARD_REGISTER(14)
    ERIS_SHARD_REGISTER(15) ERIS_SHARD_REGISTER(16) ERIS_SHARD_REGISTER(17)
    ERIS_SHARD_REGISTER(18) ERIS_SHARD_REGISTER(19) ERIS_SHARD_REGISTER(20)
    ERIS_SHARD_REGISTER(21) ERIS_SHARD_REGISTER(22) ERIS_SHARD_REGISTER(23)
    ERIS_SHARD_REGISTER(24) ERIS_SHARD_REGISTER(25) ERIS_SHARD_REGISTER(26)
    ERIS_SHARD_REGISTER(27) ERIS_SHARD_REGISTER(28) ERIS_SHARD_REGISTER(29)
    ERIS_SHARD_REGISTER(30) ERIS_SHARD_REGISTER(31) ERIS_SHARD_REGISTER(32)
    ERIS_SHARD_REGISTER(33) ERIS_SHARD_REGISTER(34) ERIS_SHARD_REGISTER(35)
    ERIS_SHARD_REGISTER(36) ERIS_SHARD_REGISTER(37) ERIS_SHARD_REGISTER(38)
    ERIS_SHARD_REGISTER(39)

    counter(5, CounterType.packets) eris_events;

    action configure(bit<1> is_sequencer, bit<9> toward_port, bit<32> session) {
        meta.configured = 1;
        meta.is_sequencer = is_sequencer;
        meta.toward_port = toward_port;
        meta.session = session;
    }

    action unconfigured() { meta.configured = 0; }

    /* Until the control plane says which switch sequences, a transaction has nowhere to go. */
    table eris_config {
        actions = { configure; unconfigured; }
        default_action = unconfigured();
    }

    action reject_message(bit<32> event) {
        eris_events.count(event);
        mark_to_drop(standard_metadata);
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);    // drop_reason stays 0
            return;
        }
        bool to_eris = hdr.udp.isValid() && hdr.udp.dstPort == ERIS_PORT;
        if (to_eris && !hdr.eris.isValid()) {
            reject_message(EVENT_MALFORMED);    // cut short inside eris_t
            return;
        }
        if (to_eris && hdr.eris.msg_type == TYPE_TXN) {
            if (hdr.eris.slots > ERIS_MAX_SHARDS) {
                reject_message(EVENT_HEADER_LIMIT);
                return;
            }
            // Bits at or above slots name shards the message has no slot for.
            if (standard_metadata.parser_error != error.NoError || hdr.eris.dests == 0
                    || (hdr.eris.dests >> hdr.eris.slots) != 0) {
                reject_message(EVENT_MALFORMED);
                return;
            }
            if (hdr.ipv4.ttl <= 1) {
                meta.drop_reason = DROP_TTL_EXPIRED;
                mark_to_drop(standard_metadata);
                return;
            }
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            standard_metadata.priority = hdr.ipv4.diffserv[4:2];
            eris_config.apply();
            if (meta.configured == 0) {
                reject_message(EVENT_UNCONFIGURED);
                return;
            }
            if (meta.is_sequencer == 0) {
                eris_events.count(EVENT_TOWARD_SEQUENCER);
                standard_metadata.egress_spec = meta.toward_port;
                return;
            }
            ERIS_STAMP(0)  ERIS_STAMP(1)  ERIS_STAMP(2)  ERIS_STAMP(3)  ERIS_STAMP(4)
            ERIS_STAMP(5)  ERIS_STAMP(6)  ERIS_STAMP(7)  ERIS_STAMP(8)  ERIS_STAMP(9)
            ERIS_STAMP(10) ERIS_STAMP(11) ERIS_STAMP(12) ERIS_STAMP(13) ERIS_STAMP(14)
            ERIS_STAMP(15) ERIS_STAMP(16) ERIS_STAMP(17) ERIS_STAMP(18) ERIS_STAMP(19)
            ERIS_STAMP(20) ERIS_STAMP(21) ERIS_STAMP(22) ERIS_STAMP(23) ERIS_STAMP(24)
            ERIS_STAMP(25) ERIS_STAMP(26) ERIS_STAMP(27) ERIS_STAMP(28) ERIS_STAMP(29)
            ERIS_STAMP(30) ERIS_STAMP(31) ERIS_STAMP(32) ERIS_STAMP(33) ERIS_STAMP(34)
            ERIS_STAMP(35) ERIS_STAMP(36) ERIS_STAMP(37) ERIS_STAMP(38) ERIS_STAMP(39)
            hdr.eris.session = meta.session;
            hdr.eris.msg_type = TYPE_SEQUENCED;
            standard_metadata.mcast_grp = ERIS_SHARDS_GROUP;
            eris_events.count(EVENT_SEQUENCED);
            return;
        }
        ECMP_FORWARD()
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    counter(3, CounterType.packets) eris_replicas;

    action to_shard(bit<32> addr, bit<16> udp_port) {
        hdr.ipv4.dstAddr = addr;
        hdr.udp.dstPort = udp_port;
        eris_replicas.count(REPLICA_DELIVERED);
    }

    action no_receiver() {
        eris_replicas.count(REPLICA_NO_RECEIVER);
        mark_to_drop(standard_metadata);
    }

    table eris_receivers {
        key = { standard_metadata.egress_rid: exact; }
        actions = { to_shard; no_receiver; }
        default_action = no_receiver();
    }

    /* The group holds every shard; the copies for shards outside dests are surplus, not lost
     * messages, so they are dropped as consumed. */
    apply {
        if (hdr.eris.isValid() && hdr.eris.msg_type == TYPE_SEQUENCED
                && standard_metadata.egress_rid != 0) {
            // rid = replica * 64 + shard + 1: the replicas of a shard share its stamp slot.
            bit<16> shard = (standard_metadata.egress_rid - 1) & 0x3F;
            if (((hdr.eris.dests >> shard) & 1) == 0) {
                eris_replicas.count(REPLICA_PRUNED);
                meta.drop_reason = DROP_CONSUMED;
                mark_to_drop(standard_metadata);
            } else {
                eris_receivers.apply();
            }
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
        packet.emit(hdr.eris);
        packet.emit(hdr.stamps);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
