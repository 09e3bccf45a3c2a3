/*
 * switchtx.p4: SwitchTx's in-switch gather-and-scatter (Li et al., PVLDB 15(11) 2022, §3.2-3.4):
 * Table 1's six cases, Fig. 7's workflow, tree-GaS (§3.3) and three priority classes (§3.4.1).
 * docs/switchtx.md has the header layout, the slot state and each design choice.
 *
 * A control message is UDP from source port SWITCHTX_PORT (the paper's reserved port) carrying
 * a switchtx_t, SWITCHTX_PATH_SLICES path slices (one per switch between the sender and the
 * tree's root, each naming its switch and giving that switch's threshold, parent port and
 * scatter group) and SWITCHTX_DOWN_SLICES down slices (the tree's other switches the message
 * reaches coming down, each with its scatter group).
 * A switch acts on a message of a Table 1 type whose slices name it; it forwards every other
 * packet by IPv4 (lib/ecmp.p4), SwitchTx's with the class of their type.
 * A reliable-channel packet (a data segment or an acknowledgement, RDMA RC's role) is
 * switchtx_t alone, of type TYPE_RC: no coordination header, as RoCE carries none, and routed
 * in the medium class (one class per connection).
 *
 * Per slot, three register arrays, each read and written exactly once per GaS packet, in
 * Fig. 7's order (Tofino: one stateful ALU per array and stage):
 *   slot_owner    the txn_id bits above the slot index: which transaction holds the slot;
 *   slot_aborted  flags: aborted (the transaction's first fail came), early (a message installed
 *                 the transaction before its init came);
 *   slot_counter  the weighted count gathered so far in the current phase.
 * The slot is txn_id mod SWITCHTX_SLOTS (v1model's identity hash), so (owner, slot) is the
 * whole txn_id and a message of an earlier transaction on a reused slot is recognised.
 *
 * A message moves up the tree while gathering (down = 0) and down after the root scattered
 * (down = 1). count says how many participants' messages it stands for: 1 from a participant,
 * a subtree's total from a lower switch, so a threshold counts participants at every level.
 *  - init: sent up the tree untouched; the root, then each switch as it comes down, installs
 *    it (owner := the transaction, aborted := 0, counter := 0) and scatters it to its child
 *    tree switches (its scatter group); consumed where it ends. A late init (of an attempt
 *    before the owner's) is dropped.
 *  - any other message of a later attempt than the slot's owner's outran its init: it installs
 *    its transaction (marked early, so that its init changes nothing when it comes) and goes on
 *    as below.
 *  - fail (not stale, not aborted): aborted := 1; up to the parent, or, at the root, down to
 *    the scatter group (write participants and client); a replica addressed to the fail's
 *    sender is pruned in egress. Coming down, a fail sets aborted at a lower switch and is
 *    scattered there even if that switch had aborted (the fail came up through it).
 *  - lock_ok, validate_ok, replicate_ok, version_copy_ok, commit_ok coming up: counter += count;
 *    below the threshold the message is consumed; at it the counter is reset and the message,
 *    with count := the total, goes to the parent, or, at the root, down: multicast to the
 *    scatter group, except commit_ok, which is routed to its IPv4 destination (the client).
 *  - coming down: multicast to this switch's scatter group (commit_ok: routed), no counting.
 *  - stale (an earlier attempt than the slot's owner's) or aborted: dropped.
 *
 * Control-plane contract:
 *   MyIngress.switchtx_config     keyless; default action configure(switch_id, relay, mode):
 *                                 this switch's id in the slices, 1..255 (0, the default: no
 *                                 GaS here); relay 1: carry messages to and from the root only
 *                                 (scope Root), no state; mode MODE_* (tests only).
 *   MyIngress.switchtx_class      const entries: message type -> class and whether GaS applies.
 *   MyIngress.switchtx_events     counter(9, packets), indexed by EVENT_*.
 *   MyIngress.switchtx_queue      counter(8, packets): SwitchTx messages by the queue priority
 *                                 they were given.
 *   MyEgress.switchtx_receivers   key egress_rid (exact): set_receiver(addr), the IPv4 address
 *                                 a multicast replica is readdressed to (rid 0: a switch port,
 *                                 left as it is).
 *   multicast groups              the scatter groups, preloaded (one node per receiver host with
 *                                 its rid, and rid 0 nodes for the ports to child switches).
 *   lib/ecmp.p4's tables for routes.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

const bit<16> SWITCHTX_PORT = 0x5458;

/* Slots: 2^SWITCHTX_SLOT_BITS (the paper's 2^16); change SWITCHTX_SLOT_BITS to resize. */
#define SWITCHTX_SLOT_BITS 16
const bit<32> SWITCHTX_SLOTS = 32w1 << SWITCHTX_SLOT_BITS;
typedef bit<(32 - SWITCHTX_SLOT_BITS)> owner_t;

/* Which attempt is later: the owner bits are a client slot's attempt counter, compared in
 * serial-number arithmetic (RFC 1982): a message ahead of the slot's owner by less than half the
 * owner space is of a later attempt, and takes the slot itself when it outran its init. An init
 * behind the owner by at most SWITCHTX_LATE_INITS attempts is late (its attempt is over); any
 * other init takes the slot, so a switch that saw none of a client slot's attempts for half the
 * space is put right by the next init. Attempt 0 is never used: owner 0 is an empty slot (as
 * after a restart), which any message takes. docs/switchtx.md, "Slot state". */
const owner_t OWNER_HALF = (owner_t)(32w1 << (31 - SWITCHTX_SLOT_BITS));
const owner_t SWITCHTX_LATE_INITS = 256;

/* Slices per message (docs/switchtx.md, "Header capacity"): a path slice for each switch between
 * the sender and the root (a fat-tree's ToR, aggregation and core), and a down slice for each
 * other tree switch that the message reaches on its way down. 42 + 8 + 3 * 7 + 16 * 3 = 119
 * bytes of parsed header, about half of Tofino's 224. */
#define SWITCHTX_PATH_SLICES 3
#define SWITCHTX_DOWN_SLICES 16
const bit<16> SWITCHTX_NO_PARENT = 0xFFFF;   // a slice's parent_port at the root

/* configure's mode: the checker's negative controls, for tests only (0 in every real run). */
const bit<8> MODE_NORMAL = 0;
const bit<8> MODE_EARLY_SCATTER = 1;     // passes a phase's first message on, before the threshold
const bit<8> MODE_IGNORE_ABORTED = 2;    // never drops a message because its transaction aborted

/* Message types: the spec's twelve. 1-7 are Table 1's, the switch's; 8-12 are forwarded. */
const bit<8> TYPE_INIT = 1;
const bit<8> TYPE_LOCK_OK = 2;
const bit<8> TYPE_VALIDATE_OK = 3;
const bit<8> TYPE_REPLICATE_OK = 4;
const bit<8> TYPE_COMMIT_OK = 5;
const bit<8> TYPE_FAIL = 6;
const bit<8> TYPE_VERSION_COPY_OK = 7;
const bit<8> TYPE_READ = 8;             // execute-phase read request or reply
const bit<8> TYPE_LOCK_REQUEST = 9;     // lock request with the write data, to a write primary
const bit<8> TYPE_WRITE_DATA = 10;      // write data to a write backup
const bit<8> TYPE_ABORT = 11;           // client's abort after a timeout
const bit<8> TYPE_READ_DATA = 12;       // a read-only transaction's read-set data
/* The reliable channel's segments and acknowledgements: switchtx_t without slices, forwarded. */
const bit<8> TYPE_RC = 0;

/* §3.4.1's classes, as queue priorities (higher is served first); 0 stays other traffic's. */
const bit<3> CLASS_LOW = 1;
const bit<3> CLASS_MEDIUM = 2;
const bit<3> CLASS_HIGH = 3;

const bit<32> EVENT_INIT = 0;           // an init installed the transaction
const bit<32> EVENT_GATHERED = 1;       // counted and consumed, below the threshold
const bit<32> EVENT_TO_PARENT = 2;      // a subtree's last message (or a fail) sent up
const bit<32> EVENT_SCATTERED = 3;      // multicast to a scatter group
const bit<32> EVENT_TO_CLIENT = 4;      // the last commit_ok, routed to the client
const bit<32> EVENT_ABORTED = 5;        // a first fail set the aborted flag
const bit<32> EVENT_STALE = 6;          // dropped: an earlier attempt's (a late init too)
const bit<32> EVENT_DROPPED_ABORTED = 7;  // dropped: the transaction has aborted
const bit<32> EVENT_EARLY = 8;          // a message outran its init and installed the transaction

/* slot_aborted's bits. */
const bit<8> FLAG_ABORTED = 1;          // the transaction's first fail came
const bit<8> FLAG_EARLY = 2;            // installed by a message: the init is still to come

header switchtx_t {
    bit<8>  msg_type;
    bit<1>  down;         // 1: scattered by the root, on its way to the participants
    bit<1>  retry;        // a retrying transaction's message: the highest class
    bit<6>  reserved;
    bit<16> count;        // participants' messages this one stands for
    bit<32> txn_id;
}

header switchtx_slice_t {
    bit<8>  switch_id;    // the tree switch this slice is for (0: unused)
    bit<16> threshold;    // participants' messages to gather here in this phase
    bit<16> parent_port;  // where the gathered message goes; SWITCHTX_NO_PARENT at the root
    bit<16> scatter_group;  // multicast group of this switch's next-phase receivers
}

/* A tree switch off the sender's path: it sees the message only on its way down. */
header switchtx_down_t {
    bit<8>  switch_id;    // 0: unused
    bit<16> scatter_group;
}

struct headers_t {
    ethernet_t        ethernet;
    ipv4_t            ipv4;
    udp_t             udp;
    switchtx_t        switchtx;
    switchtx_slice_t[SWITCHTX_PATH_SLICES] slices;
    switchtx_down_t[SWITCHTX_DOWN_SLICES] downs;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
    bit<8>  switch_id;
    bit<1>  relay;        // root scope: this switch only carries messages to and from the root
    bit<8>  mode;         // MODE_*
    bit<1>  gas;          // a Table 1 type
    bit<3>  prio_class;   // CLASS_*, 0 for other traffic
    bit<1>  in_tree;      // a slice names this switch
    bit<16> threshold;
    bit<16> parent_port;
    bit<16> scatter_group;
    bit<32> receiver;
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
        transition select(hdr.udp.srcPort) {
            SWITCHTX_PORT: parse_switchtx;
            default: accept;
        }
    }

    state parse_switchtx {
        packet.extract(hdr.switchtx);
        transition select(hdr.switchtx.msg_type) {
            TYPE_RC: accept;
            default: parse_slice;
        }
    }

    // A message cut short leaves its last down slice invalid, and ingress forwards it untouched.
    state parse_slice {
        packet.extract(hdr.slices.next);
        transition select(hdr.slices.lastIndex) {
            SWITCHTX_PATH_SLICES - 1: parse_down;
            default: parse_slice;
        }
    }

    state parse_down {
        packet.extract(hdr.downs.next);
        transition select(hdr.downs.lastIndex) {
            SWITCHTX_DOWN_SLICES - 1: accept;
            default: parse_down;
        }
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

/* Steps 2-3 of Fig. 7: this switch's slice, if the tree has it. */
#define PICK_SLICE(i) \
    if (meta.in_tree == 0 && hdr.slices[i].switch_id == meta.switch_id) { \
        meta.in_tree = 1; \
        meta.threshold = hdr.slices[i].threshold; \
        meta.parent_port = hdr.slices[i].parent_port; \
        meta.scatter_group = hdr.slices[i].scatter_group; \
    }

/* A down slice names a switch only for a message coming down. */
#define PICK_DOWN(i) \
    if (meta.in_tree == 0 && hdr.downs[i].switch_id == meta.switch_id) { \
        meta.in_tree = 1; \
        meta.scatter_group = hdr.downs[i].scatter_group; \
    }

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    ECMP_DECLARATIONS

    register<owner_t>(SWITCHTX_SLOTS) slot_owner;
    register<bit<8>>(SWITCHTX_SLOTS) slot_aborted;
    register<bit<16>>(SWITCHTX_SLOTS) slot_counter;
    counter(9, CounterType.packets) switchtx_events;
    counter(8, CounterType.packets) switchtx_queue;

    action configure(bit<8> switch_id, bit<1> relay, bit<8> mode) {
        meta.switch_id = switch_id;
        meta.relay = relay;
        meta.mode = mode;
    }

    table switchtx_config {
        actions = { configure; }
        default_action = configure(0, 0, MODE_NORMAL);
    }

    action classify(bit<3> prio_class, bit<1> gas) {
        meta.prio_class = prio_class;
        meta.gas = gas;
    }

    /* §3.4.1: the messages that end a contention span first; Table 1's types get GaS. */
    table switchtx_class {
        key = { hdr.switchtx.msg_type: exact; }
        actions = { classify; }
        default_action = classify(CLASS_MEDIUM, 0);
        const entries = {
            TYPE_INIT: classify(CLASS_MEDIUM, 1);
            TYPE_LOCK_OK: classify(CLASS_HIGH, 1);
            TYPE_VALIDATE_OK: classify(CLASS_MEDIUM, 1);
            TYPE_REPLICATE_OK: classify(CLASS_HIGH, 1);
            TYPE_COMMIT_OK: classify(CLASS_LOW, 1);
            TYPE_FAIL: classify(CLASS_HIGH, 1);
            TYPE_VERSION_COPY_OK: classify(CLASS_HIGH, 1);
            TYPE_READ: classify(CLASS_LOW, 0);
            TYPE_RC: classify(CLASS_MEDIUM, 0);
        }
    }

    action scatter() {
        standard_metadata.mcast_grp = meta.scatter_group;
        switchtx_events.count(EVENT_SCATTERED);
    }

    action to_parent() {
        standard_metadata.egress_spec = (bit<9>)meta.parent_port;
        switchtx_events.count(EVENT_TO_PARENT);
    }

    action consume() {
        meta.drop_reason = DROP_CONSUMED;
        mark_to_drop(standard_metadata);
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);    // drop_reason stays 0
            return;
        }
        bool route = true;
        // A reliable-channel packet has no slices to complete it; a control message needs all.
        bool rc = hdr.switchtx.isValid() && hdr.switchtx.msg_type == TYPE_RC;
        if (rc || (hdr.switchtx.isValid() && hdr.downs[SWITCHTX_DOWN_SLICES - 1].isValid())) {
            switchtx_config.apply();
            switchtx_class.apply();
            if (hdr.switchtx.retry == 1) {
                meta.prio_class = CLASS_HIGH;
            }
            switchtx_queue.count((bit<32>)meta.prio_class);
            if (!rc && meta.switch_id != 0) {
                PICK_SLICE(0) PICK_SLICE(1) PICK_SLICE(2)
                if (hdr.switchtx.down == 1) {
                    PICK_DOWN(0) PICK_DOWN(1) PICK_DOWN(2) PICK_DOWN(3)
                    PICK_DOWN(4) PICK_DOWN(5) PICK_DOWN(6) PICK_DOWN(7)
                    PICK_DOWN(8) PICK_DOWN(9) PICK_DOWN(10) PICK_DOWN(11)
                    PICK_DOWN(12) PICK_DOWN(13) PICK_DOWN(14) PICK_DOWN(15)
                }
            }
            route = meta.gas == 0 || meta.in_tree == 0;
        }
        bit<8> msg_type = hdr.switchtx.msg_type;
        bool down = hdr.switchtx.down == 1;
        bool root = meta.parent_port == SWITCHTX_NO_PARENT;
        if (!route && meta.relay == 1) {
            // Root scope: a lower switch keeps no state. It carries a message up to the root and
            // fans the root's scatter out; the root's last commit_ok goes by IPv4.
            standard_metadata.priority = meta.prio_class;
            if (!down && !root) {
                to_parent();
            } else if (down && msg_type != TYPE_COMMIT_OK && meta.scatter_group != 0) {
                scatter();
            } else {
                route = true;
            }
        } else if (!route) {
            bool init = msg_type == TYPE_INIT;
            bool fail = msg_type == TYPE_FAIL;
            // An init goes up to the root untouched; the root and, as it comes down, every
            // other switch of the tree act on it, each exactly once.
            bool acts = !init || down || root;
            bit<32> slot;
            hash(slot, HashAlgorithm.identity, 32w0, { hdr.switchtx.txn_id }, SWITCHTX_SLOTS);
            owner_t txn = (owner_t)(hdr.switchtx.txn_id >> SWITCHTX_SLOT_BITS);

            // Step 1: the owner. An init takes the slot unless it is late; any other message
            // takes it from an earlier attempt (the message outran its init: the init is
            // unreliable and nothing orders it before the participants' messages), and is
            // otherwise its owner's or stale.
            owner_t owner;
            slot_owner.read(owner, slot);
            owner_t ahead = txn - owner;
            owner_t behind = owner - txn;
            bool own = ahead == 0;
            bool empty = owner == 0;
            bool claim = false;
            if (init) {
                claim = acts && (own || empty || behind > SWITCHTX_LATE_INITS);
            } else {
                claim = !own && (empty || ahead < OWNER_HALF);
            }
            if (claim) {
                owner = txn;
            }
            slot_owner.write(slot, owner);
            bool stale = owner != txn;

            // Steps 4-5: the flags. A transaction that takes the slot starts clean: an init
            // clears the flags; a message that outran its init marks the slot early, and its
            // init, when it comes, only clears the mark (the counter and the aborted flag are
            // the transaction's already). The first fail sets aborted. The root's fail coming
            // down passes a lower switch that already aborted (the fail came up through it):
            // its other participants still need it.
            bit<8> flags;
            slot_aborted.read(flags, slot);
            bool fresh = claim && !(init && own && (flags & FLAG_EARLY) != 0);
            if (fresh) {
                flags = 0;
            }
            bool blocked = (flags & FLAG_ABORTED) != 0 && !(fail && down) &&
                           meta.mode != MODE_IGNORE_ABORTED;
            bool dead = !init && (stale || blocked);
            if (init && claim) {
                flags = flags & ~FLAG_EARLY;
            } else if (fresh) {
                flags = FLAG_EARLY;
            }
            if (fail && !dead) {
                flags = flags | FLAG_ABORTED;
            }
            slot_aborted.write(slot, flags);

            // Step 6: the counter. A gathered message coming up adds its weight; the one that
            // reaches the threshold resets it for the next phase and is passed on (in
            // MODE_EARLY_SCATTER, the phase's first message is passed on instead).
            bit<16> counted;
            slot_counter.read(counted, slot);
            if (fresh) {
                counted = 0;
            }
            bit<32> total = (bit<32>)counted + (bit<32>)hdr.switchtx.count;
            bool gathers = !init && !dead && !fail && !down;
            bool last = gathers && total >= (bit<32>)meta.threshold;
            bool pass = last;
            if (meta.mode == MODE_EARLY_SCATTER) {
                pass = gathers && counted == 0;
            }
            if (last) {
                counted = 0;
            } else if (gathers) {
                counted = (bit<16>)total;
            }
            slot_counter.write(slot, counted);

            standard_metadata.priority = meta.prio_class;
            if (fresh && !init) {
                switchtx_events.count(EVENT_EARLY);
            }
            if (init) {
                if (!acts) {
                    to_parent();
                } else if (stale) {
                    switchtx_events.count(EVENT_STALE);
                    mark_to_drop(standard_metadata);
                } else {
                    if (fresh) {
                        switchtx_events.count(EVENT_INIT);
                    }
                    if (meta.scatter_group != 0) {
                        hdr.switchtx.down = 1;
                        scatter();
                    } else {
                        consume();
                    }
                }
            } else if (stale) {
                switchtx_events.count(EVENT_STALE);
                mark_to_drop(standard_metadata);
            } else if (dead) {
                switchtx_events.count(EVENT_DROPPED_ABORTED);
                mark_to_drop(standard_metadata);
            } else if (gathers && !pass) {
                switchtx_events.count(EVENT_GATHERED);
                consume();
            } else {
                if (fail) {
                    switchtx_events.count(EVENT_ABORTED);
                } else if (pass) {
                    hdr.switchtx.count = (bit<16>)total;
                }
                if (!down && !root) {
                    to_parent();
                } else {
                    hdr.switchtx.down = 1;
                    if (msg_type == TYPE_COMMIT_OK) {
                        switchtx_events.count(EVENT_TO_CLIENT);
                        route = true;
                    } else if (meta.scatter_group != 0) {
                        scatter();
                    } else {
                        consume();
                    }
                }
            }
        }
        if (route) {
            ECMP_FORWARD()
            if (meta.prio_class != 0) {
                standard_metadata.priority = meta.prio_class;   // a SwitchTx message's class
            }
        }
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    action set_receiver(bit<32> addr) { meta.receiver = addr; }

    table switchtx_receivers {
        key = { standard_metadata.egress_rid: exact; }
        actions = { set_receiver; NoAction; }
        default_action = NoAction();
    }

    /* A scattered replica to a host takes its address; a fail's replica to its own sender,
     * which Table 1 leaves out, is dropped. */
    apply {
        if (hdr.switchtx.isValid() && standard_metadata.egress_rid != 0) {
            if (switchtx_receivers.apply().hit) {
                if (hdr.switchtx.msg_type == TYPE_FAIL && meta.receiver == hdr.ipv4.srcAddr) {
                    mark_to_drop(standard_metadata);
                } else {
                    hdr.ipv4.dstAddr = meta.receiver;
                }
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
        packet.emit(hdr.switchtx);
        packet.emit(hdr.slices);
        packet.emit(hdr.downs);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
