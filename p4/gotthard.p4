/*
 * gotthard.p4: optimistic abort (Jepsen et al., USI TR 2016-05, Algorithm 2) and its two
 * baselines, chosen by the control plane: plain forwarding and an on-path read cache.
 *
 * Wire format (paper Fig. 5), after UDP to or from GOTTHARD_PORT: a 13-byte gotthard_t, then
 * op_cnt operations of 13 bytes (op_type, 32-bit key, 64-bit value; the paper's values are
 * 1024 bits, which changes nothing here but the frame size). txn_id has 64 bits, not the
 * paper's 32, so that no two attempts of a run share one (the client in the top 16 bits, its
 * attempt counter below); a reserved bit marks the store's replays. Up to GOTTHARD_MAX_OPS
 * per packet; larger transactions are fragmented by the client (frag_cnt > 1) and pass
 * through untouched, as does every packet of MODE_FORWARD.
 *
 * Requests carry compares (the value the client read), reads and writes. A response carries
 * the responder's value for every key of the transaction: the store's OK carries the values
 * read and written, its ABORT the current value of every key (the corrections of the failed
 * compares, and for the writes that did not happen the values they left in place).
 *
 * The cache: registers indexed by crc32(key) mod cache_slots, holding the key (a tag that
 * detects collisions), its value, a valid bit, the transaction whose optimistic write put
 * the value there (0: a value the store sent, "confirmed"), and the root of the chain of
 * optimistic writes the value belongs to: the first one written over a confirmed value
 * (0 once the root has committed).
 *  - MODE_GOTTHARD, request: a compare that hits the cache with another value makes the switch
 *    answer ABORT at once (from_switch = 1), the compares rewritten to the cached values.
 *    Otherwise the writes are recorded as pending on the transaction and the request goes to
 *    the store; a compare-only request whose compares all hit confirmed values is answered OK.
 *    A write over a confirmed value or a miss starts a chain, but only in a transaction that
 *    depends on no pending write (its compares hit confirmed values or missed), so that every
 *    chain starts from the store's state. A chain rooted on another chain's pending values is
 *    doomed when they are, and two such chains, each rooted on the other's values, reset each
 *    other forever (a livelock seen under TPC-C). A dependent transaction extends the chains
 *    it writes to; its other writes reach the cache with the store's answer.
 *    A retransmitted request (status RETRANSMIT) goes to the store untouched: only the store
 *    knows whether its first copy committed.
 *  - A store ABORT (every caching mode) puts the store's value back (Algorithm 2, line 17,
 *    extended to the aborted writes' keys) where the pending chain descends from the aborted
 *    transaction: its own write, a chain it is the root of, or one whose root has committed
 *    (responses come back in the order requests passed, so the aborted transaction is then a
 *    member). Such values would fail at the store, and clients would keep being aborted on
 *    them while new optimistic writes extend the chain. A chain rooted after an earlier
 *    reset is left alone: the late aborts of transactions built on the old chain would
 *    otherwise wipe every new chain in turn.
 *  - A store OK confirms its values where no other transaction's write is pending; where one
 *    is, that value is newer than the store's and stays.
 *  - A store answer marked replay repeats, for a retransmission, the answer of the first
 *    execution: its values may be older than what the switch has learned since (they would
 *    roll the cache back), so it passes untouched, like a retransmitted request. Dropping
 *    the entries of its writes instead was tried: every drop lets a request with a stale
 *    compare miss and root a chain of doomed writes, and with replays of most requests
 *    (timeouts below the round trip) TPC-C fell from 2143 commits in 20 s to under 50.
 *  - Another switch's ABORT, on its way back from a Gotthard switch nearer the store: the
 *    transaction never reaches the store, so no store answer would reset its pending writes.
 *    They are dropped where the chain descends from it (the entries become misses), and its
 *    compares, that switch's values, are adopted: pending on the aborted transaction, so that
 *    they abort mismatching requests but are never taken for confirmed values.
 *  - MODE_READ_CACHE, request: a read-only request whose keys all hold confirmed values is
 *    answered OK from the cache; anything else goes to the store.
 *  - MODE_BROKEN_OK_WRITES answers OK to every request with writes, without the store: the
 *    negative control of the serializability checker.
 *
 * Control-plane contract:
 *   MyIngress.gotthard_config   keyless; default action configure(mode, cache_slots), with
 *                               1 <= cache_slots <= GOTTHARD_CACHE_MAX.
 *   MyIngress.gotthard_events   counter(9, packets), indexed by EVENT_*.
 *   lib/ecmp.p4's tables for routes (answers are routed back to the client like any packet).
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

const bit<16> GOTTHARD_PORT = 0x4754;
const bit<32> GOTTHARD_MAX_OPS = 10;        // FOR_EACH_OP below has one step per operation
const bit<32> GOTTHARD_CACHE_MAX = 65536;

const bit<1> MSG_REQUEST = 0;
const bit<1> MSG_RESPONSE = 1;

const bit<8> STATUS_OK = 0;          // responses
const bit<8> STATUS_ABORT = 1;
const bit<8> STATUS_FIRST = 0;       // requests
const bit<8> STATUS_RETRANSMIT = 2;

const bit<8> OP_READ = 1;
const bit<8> OP_WRITE = 2;
const bit<8> OP_COMPARE = 3;

const bit<8> MODE_FORWARD = 0;
const bit<8> MODE_READ_CACHE = 1;
const bit<8> MODE_GOTTHARD = 2;
const bit<8> MODE_BROKEN_OK_WRITES = 3;

const bit<32> EVENT_SWITCH_ABORT = 0;
const bit<32> EVENT_SWITCH_OK = 1;
const bit<32> EVENT_CACHE_HIT = 2;
const bit<32> EVENT_CACHE_MISS = 3;
const bit<32> EVENT_WRITE_RECORDED = 4;
const bit<32> EVENT_CACHE_UPDATE = 5;
const bit<32> EVENT_UPDATE_SKIPPED = 6;   // another transaction's write is pending there
const bit<32> EVENT_PASSED_THROUGH = 7;   // fragmented, retransmitted or replayed
const bit<32> EVENT_PENDING_DROPPED = 8;  // another switch aborted the writing transaction

header gotthard_t {
    bit<1>  msg_type;
    bit<1>  from_switch;
    bit<1>  replay;       // a store answer repeated for a retransmission
    bit<5>  reserved;
    bit<64> txn_id;
    bit<8>  frag_seq;
    bit<8>  frag_cnt;
    bit<8>  status;
    bit<8>  op_cnt;
}

header gotthard_op_t {
    bit<8>  op_type;
    bit<32> key;
    bit<64> value;
}

struct headers_t {
    ethernet_t    ethernet;
    ipv4_t        ipv4;
    udp_t         udp;
    gotthard_t    gotthard;
    gotthard_op_t[GOTTHARD_MAX_OPS] ops;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
    bit<8>  mode;
    bit<32> cache_slots;
    bit<8>  ops_left;
    bit<1>  mismatch;     // a compare disagrees with the cache
    bit<1>  unsure;       // a compare or read missed, or hit a pending value
    bit<1>  depends;      // a compare matched another transaction's pending write
    bit<8>  reads;
    bit<8>  writes;
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
            GOTTHARD_PORT: parse_gotthard;
            default: parse_udp_source;
        }
    }

    state parse_udp_source {
        transition select(hdr.udp.srcPort) {
            GOTTHARD_PORT: parse_gotthard;
            default: accept;
        }
    }

    state parse_gotthard {
        packet.extract(hdr.gotthard);
        meta.ops_left = hdr.gotthard.op_cnt;
        transition select(hdr.gotthard.op_cnt) {
            0: accept;
            default: parse_op;
        }
    }

    // More than GOTTHARD_MAX_OPS operations: error.StackOutOfBounds, and ingress passes the
    // packet on untouched.
    state parse_op {
        packet.extract(hdr.ops.next);
        meta.ops_left = meta.ops_left - 1;
        transition select(meta.ops_left) {
            0: accept;
            default: parse_op;
        }
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

/* The cache slot of operation i's key. */
#define SLOT(i) \
    bit<32> slot_##i; \
    hash(slot_##i, HashAlgorithm.crc32, 32w0, { hdr.ops[i].key }, meta.cache_slots);

/* Reads the cache entry of operation i into cached_*_i; hit_i: valid and the same key. */
#define LOOKUP(i) \
    SLOT(i) \
    bit<32> cached_key_##i; \
    cache_key.read(cached_key_##i, slot_##i); \
    bit<1> cached_valid_##i; \
    cache_valid.read(cached_valid_##i, slot_##i); \
    bit<64> cached_value_##i; \
    cache_value.read(cached_value_##i, slot_##i); \
    bit<64> cached_pending_##i; \
    cache_pending.read(cached_pending_##i, slot_##i); \
    bool hit_##i = cached_valid_##i == 1 && cached_key_##i == hdr.ops[i].key;

/* Algorithm 2, lines 3-7, plus the count of reads and writes (MODE_GOTTHARD requests). */
#define CHECK_OP(i) \
    if (hdr.ops[i].isValid()) { \
        if (hdr.ops[i].op_type == OP_COMPARE) { \
            LOOKUP(i) \
            if (!hit_##i) { \
                meta.unsure = 1; \
                gotthard_events.count(EVENT_CACHE_MISS); \
            } else { \
                gotthard_events.count(EVENT_CACHE_HIT); \
                if (cached_value_##i != hdr.ops[i].value) { \
                    meta.mismatch = 1; \
                } else if (cached_pending_##i != 0) { \
                    meta.unsure = 1; \
                    meta.depends = 1; \
                } \
            } \
        } else if (hdr.ops[i].op_type == OP_READ) { \
            meta.reads = meta.reads + 1; \
        } else if (hdr.ops[i].op_type == OP_WRITE) { \
            meta.writes = meta.writes + 1; \
        } \
    }

/* The abort's corrections: every compare of operation i takes the cached value. */
#define CORRECT_OP(i) \
    if (hdr.ops[i].isValid() && hdr.ops[i].op_type == OP_COMPARE) { \
        LOOKUP(i) \
        if (hit_##i) { \
            hdr.ops[i].value = cached_value_##i; \
        } \
    }

/* Algorithm 2, lines 11-12: the write becomes the cached value, pending on the transaction;
 * written over a confirmed value, it roots a new chain, unless the transaction depends on a
 * pending write (then it is not recorded). */
#define RECORD_WRITE(i) \
    if (hdr.ops[i].isValid() && hdr.ops[i].op_type == OP_WRITE) { \
        LOOKUP(i) \
        bool extends_##i = hit_##i && cached_pending_##i != 0; \
        if (extends_##i || meta.depends == 0) { \
            if (!extends_##i) { \
                cache_root.write(slot_##i, hdr.gotthard.txn_id); \
            } \
            cache_key.write(slot_##i, hdr.ops[i].key); \
            cache_value.write(slot_##i, hdr.ops[i].value); \
            cache_valid.write(slot_##i, 1); \
            cache_pending.write(slot_##i, hdr.gotthard.txn_id); \
            gotthard_events.count(EVENT_WRITE_RECORDED); \
        } \
    }

/* Operation i's cache entry, and whether its pending value descends from the responding
 * transaction: its own write, a chain it roots, or one whose root has committed. */
#define CHAIN(i) \
    LOOKUP(i) \
    bit<64> root_##i; \
    cache_root.read(root_##i, slot_##i); \
    bool own_##i = cached_pending_##i == hdr.gotthard.txn_id; \
    bool descends_##i = own_##i || root_##i == hdr.gotthard.txn_id || root_##i == 0;

/* A store response's value for operation i's key, where it is the truth: see the header. */
#define LEARN_OP(i) \
    if (hdr.ops[i].isValid()) { \
        CHAIN(i) \
        if (hit_##i && cached_pending_##i != 0 && \
            (hdr.gotthard.status == STATUS_OK ? !own_##i : !descends_##i)) { \
            if (hdr.gotthard.status == STATUS_OK && root_##i == hdr.gotthard.txn_id) { \
                cache_root.write(slot_##i, 0); \
            } \
            gotthard_events.count(EVENT_UPDATE_SKIPPED); \
        } else { \
            cache_key.write(slot_##i, hdr.ops[i].key); \
            cache_value.write(slot_##i, hdr.ops[i].value); \
            cache_valid.write(slot_##i, 1); \
            cache_pending.write(slot_##i, 0); \
            cache_root.write(slot_##i, 0); \
            gotthard_events.count(EVENT_CACHE_UPDATE); \
        } \
    }

/* Another switch's abort, 1: the transaction's pending writes, and the chains that descend
 * from them, are dropped; it never reaches the store, so no store answer would reset them. */
#define FORGET_WRITE(i) \
    if (hdr.ops[i].isValid() && hdr.ops[i].op_type == OP_WRITE) { \
        CHAIN(i) \
        if (hit_##i && cached_pending_##i != 0 && descends_##i) { \
            cache_valid.write(slot_##i, 0); \
            cache_pending.write(slot_##i, 0); \
            cache_root.write(slot_##i, 0); \
            gotthard_events.count(EVENT_PENDING_DROPPED); \
        } \
    }

/* Another switch's abort, 2: its compares carry that switch's values, nearer the store's.
 * They are kept as a pending value of the aborted transaction, whose store answer never comes:
 * a mismatch aborts, a match goes on to the store, and none is answered OK from it. A newer
 * chain is left alone, and an equal value as it is. */
#define ADOPT_CORRECTION(i) \
    if (hdr.ops[i].isValid() && hdr.ops[i].op_type == OP_COMPARE) { \
        CHAIN(i) \
        bool newer_##i = hit_##i && cached_pending_##i != 0 && !descends_##i; \
        bool same_##i = hit_##i && cached_value_##i == hdr.ops[i].value; \
        if (!newer_##i && !same_##i) { \
            cache_key.write(slot_##i, hdr.ops[i].key); \
            cache_value.write(slot_##i, hdr.ops[i].value); \
            cache_valid.write(slot_##i, 1); \
            cache_pending.write(slot_##i, hdr.gotthard.txn_id); \
            cache_root.write(slot_##i, 0); \
        } \
    }

/* MODE_READ_CACHE: operation i is a read of a confirmed value (unsure otherwise); the value is
 * filled in, for the answer if every read hits. */
#define SERVE_READ(i) \
    if (hdr.ops[i].isValid()) { \
        LOOKUP(i) \
        if (hdr.ops[i].op_type != OP_READ || !hit_##i || cached_pending_##i != 0) { \
            meta.unsure = 1; \
        } else { \
            hdr.ops[i].value = cached_value_##i; \
        } \
    }

#define FOR_EACH_OP(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9)

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    ECMP_DECLARATIONS

    register<bit<32>>(GOTTHARD_CACHE_MAX) cache_key;
    register<bit<64>>(GOTTHARD_CACHE_MAX) cache_value;
    register<bit<1>>(GOTTHARD_CACHE_MAX) cache_valid;
    register<bit<64>>(GOTTHARD_CACHE_MAX) cache_pending;
    register<bit<64>>(GOTTHARD_CACHE_MAX) cache_root;
    counter(9, CounterType.packets) gotthard_events;

    action configure(bit<8> mode, bit<32> cache_slots) {
        meta.mode = mode;
        meta.cache_slots = cache_slots;
    }

    table gotthard_config {
        actions = { configure; }
        default_action = configure(MODE_FORWARD, 1);
    }

    /* Turns the request into the switch's answer to its client; routed like any packet. */
    action answer(bit<8> status) {
        bit<48> mac = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = hdr.ethernet.srcAddr;
        hdr.ethernet.srcAddr = mac;
        bit<32> address = hdr.ipv4.dstAddr;
        hdr.ipv4.dstAddr = hdr.ipv4.srcAddr;
        hdr.ipv4.srcAddr = address;
        hdr.ipv4.ttl = 64;
        bit<16> port = hdr.udp.dstPort;
        hdr.udp.dstPort = hdr.udp.srcPort;
        hdr.udp.srcPort = port;
        hdr.udp.checksum = 0;
        hdr.gotthard.msg_type = MSG_RESPONSE;
        hdr.gotthard.from_switch = 1;
        hdr.gotthard.status = status;
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);
            return;
        }
        gotthard_config.apply();
        bool whole = hdr.gotthard.isValid() && hdr.gotthard.frag_cnt == 1 &&
                     standard_metadata.parser_error == error.NoError;
        if (hdr.gotthard.isValid() && meta.mode != MODE_FORWARD && !whole) {
            gotthard_events.count(EVENT_PASSED_THROUGH);
        }
        if (whole && meta.mode != MODE_FORWARD) {
            if (hdr.gotthard.msg_type == MSG_RESPONSE) {
                if (hdr.gotthard.from_switch == 0 && hdr.gotthard.replay == 1) {
                    gotthard_events.count(EVENT_PASSED_THROUGH);
                } else if (hdr.gotthard.from_switch == 0) {
                    FOR_EACH_OP(LEARN_OP)
                } else if (hdr.gotthard.status == STATUS_ABORT) {
                    FOR_EACH_OP(FORGET_WRITE)
                    FOR_EACH_OP(ADOPT_CORRECTION)
                }
            } else if (hdr.gotthard.status == STATUS_RETRANSMIT) {
                gotthard_events.count(EVENT_PASSED_THROUGH);
            } else if (meta.mode == MODE_GOTTHARD) {
                FOR_EACH_OP(CHECK_OP)
                if (meta.mismatch == 1) {
                    FOR_EACH_OP(CORRECT_OP)
                    answer(STATUS_ABORT);
                    gotthard_events.count(EVENT_SWITCH_ABORT);
                } else if (meta.reads == 0 && meta.writes == 0) {
                    if (meta.unsure == 0 && hdr.gotthard.op_cnt != 0) {
                        answer(STATUS_OK);
                        gotthard_events.count(EVENT_SWITCH_OK);
                    }
                } else {
                    FOR_EACH_OP(RECORD_WRITE)
                }
            } else if (meta.mode == MODE_READ_CACHE) {
                if (hdr.gotthard.op_cnt != 0) {
                    FOR_EACH_OP(SERVE_READ)
                    if (meta.unsure == 0) {
                        answer(STATUS_OK);
                        gotthard_events.count(EVENT_SWITCH_OK);
                    }
                }
            } else if (meta.mode == MODE_BROKEN_OK_WRITES) {
                FOR_EACH_OP(CHECK_OP)
                if (meta.writes != 0) {
                    answer(STATUS_OK);
                    gotthard_events.count(EVENT_SWITCH_OK);
                }
            }
        }
        ECMP_FORWARD()
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
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
        packet.emit(hdr.gotthard);
        packet.emit(hdr.ops);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
