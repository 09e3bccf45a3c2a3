/*
 * onepipe.p4: 1Pipe's in-network barrier aggregation (best effort service), on the switching
 * chip, after Li et al., "1Pipe: Scalable Total Order Communication in Data Center Networks",
 * SIGCOMM 2021, sections 4 and 6.2.1. Forwarding is lib/ecmp.p4's.
 *
 * Every 1Pipe packet (data, ACK, NAK: UDP to ports ONEPIPE_PORT_BASE + 0..255) and every beacon
 * (Ethernet type ETHERTYPE_ONEPIPE, one hop) carries a barrier B: all later packets on the
 * same link have timestamps above B. On each such packet from input port i the ingress sets
 * port_barrier[i] := B and stamps the packet with the minimum of port_barrier over the live
 * input ports that can feed its output port, computed with a comparison tree (no loops in P4;
 * one min per pair per stage, as on Tofino).
 *
 * Which inputs feed an output (paper 4.2: "the minimum barrier timestamp value of all
 * possible input links"; Fig. 3 splits each switch into an uplink and a downlink half): only
 * the inputs whose packets can leave by it. The routing is up-down, so a packet leaving on an
 * "up" port (towards a switch of the same or a higher tier; configure's up_ports) only comes
 * from ports below, and a packet never goes back towards the neighbour it came from (a spine
 * never sends a ToR's packet back to that ToR, a core never sends a pod's packet back into
 * the pod). Each port p has a group: the inputs that cannot feed output p, p's own among
 * them, the same set for each of its members. Up ports form one group; the control plane
 * writes the down ports' groups (port_group, from the routes; 0 for none: a host port feeds
 * itself, since processes of one host talk through their ToR). Output p takes the minimum
 * over the live inputs outside its group. Without the groups, a barrier sent to a host
 * would wait for its own rack's beacons to come back down from the core. No output depends
 * on itself through a neighbour, so barriers cannot stall in a cycle. A beacon broadcast
 * needs two minima: b_min (with the group of a port holding it) and b_second, the minimum
 * outside that group; a port in that group takes b_second, every other port b_min.
 *
 * Live ports (register live_ports, a bit per port): the control plane sets the connected ports
 * at start. A port silent for timeout_us is removed at the next tick. A port is out when it is
 * not live, or when its register holds BARRIER_MAX (its neighbour has nothing live below); an
 * out port is admitted again once its barrier exceeds every barrier this switch has stamped
 * for the outputs it feeds (high_water), so stamped barriers stay monotonic. Beacons to an out
 * port are joins (FLAG_JOIN, msg_ts = the barrier to pass), and so are beacons to the ports
 * below while the last beacon from a port above was a join (blocked_by), with the highest
 * join received from above (join_above) as the floor: a host behind the others raises its
 * clock past it (docs/onepipe.md, "Rejoining"). An output that no live input feeds gets the
 * maximum, and its neighbour counts the port out; only when no live input holds a barrier at
 * all (a switch just recovered) do the ports that are not up get the switch's mark instead,
 * never the maximum, which a host would raise its clock to.
 *
 * Beacons. Only their sending lives outside P4: every beacon interval, at synchronized times,
 * the switch's beacon generator injects one TICK packet on the CPU port (as Tofino's packet
 * generator would). The tick expires silent ports and is multicast to every connected port
 * (group ALL_PORTS_GROUP); in egress each copy leaves as a beacon if its port carried no 1Pipe
 * packet (data or beacon) since the previous tick, or if the port's barrier has advanced since
 * it last sent one.
 * A beacon arriving from a neighbour is consumed, and if either minimum advanced or the
 * smallest's group changed it is multicast like a tick, to the ports whose barrier advanced: barriers then cross an idle
 * switch at once instead of waiting for its next tick. Hosts send their beacons at the same
 * synchronized times, all carrying the same round time, so a switch's minimum advances about
 * once per interval and so does this triggered broadcast.
 *
 * Reliable service (paper 5.1). Beacons also carry a commit barrier C: every reliable message
 * below C from the senders behind the link is held by its receivers. Each beacon from port i
 * sets port_commit[i], and a broadcast carries the minima of port_commit over commit_live
 * with the same groups as the best-effort barrier; a beacon is triggered, and sent on a
 * port, when either barrier advanced. Commit inputs leave only by the control plane (the
 * reliable service's controller), never by a timeout. Prepare segments (OP_RDATA) are
 * forwarded untouched: they neither set nor carry a barrier, but keep their port live.
 *
 * Control-plane contract:
 *   MyIngress.onepipe_config   keyless; default action configure(up_ports, cpu_port,
 *                              timeout_us, priority, mode). mode MODE_CHIP aggregates here;
 *                              MODE_CPU forwards data untouched and sends every beacon to
 *                              cpu_port, where the switch CPU (or a host representative)
 *                              aggregates (paper 6.2.2, 6.2.3); a beacon from cpu_port is a
 *                              packet-out to the port in its PSN field. MODE_OFF turns aggregation
 *                              off (packets keep the sender's barrier; beacons are
 *                              consumed): the negative control of the tests.
 *   MyIngress.live_ports       register<bit<32>>(1): cell 0, the connected ports at start.
 *   MyIngress.port_group       register<bit<32>>(32): cell p, the down ports that cannot feed
 *                              output p (p among them), 0 if none.
 *   MyIngress.join_above       register<bit<48>>(1): the highest join timestamp from a port above.
 *   MyIngress.blocked_by       register<bit<32>>(1): the ports above whose last beacon was a join.
 *   MyIngress.commit_live      register<bit<32>>(1): the ports whose commit barrier counts
 *                              (reliable service: the connected ports; best effort: none).
 *   multicast group ALL_PORTS_GROUP: one copy per connected port.
 *   MyEgress.beacons_sent      counter: beacons sent per port (for overhead figures).
 *   lib/ecmp.p4's tables for routes.
 * Ports 0 .. 31 only (a 32-port switch); the simulator refuses larger switches.
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

#include "lib/headers.p4"
#include "lib/ecmp.p4"

const bit<16> ETHERTYPE_ONEPIPE = 0x88B5;
const bit<16> ONEPIPE_PORT_BASE = 0x4000;
const bit<16> ONEPIPE_PORT_MASK = 0xff00;   // 256 ports: one per process of a host
const bit<16> ALL_PORTS_GROUP = 1;
const bit<9>  DROP_PORT = 511;     // v1model: egress_spec after mark_to_drop

const bit<8> OP_DATA = 1;
const bit<8> OP_ACK = 2;
const bit<8> OP_NAK = 3;
const bit<8> OP_BEACON = 4;
const bit<8> OP_TICK = 5;
const bit<8> OP_RDATA = 6;   // reliable service: a prepare segment (never aggregated)
const bit<8> OP_RACK = 7;    // reliable service: a go-back-N ACK (psn = next expected)

const bit<2> MODE_OFF = 0;
const bit<2> MODE_CHIP = 1;
const bit<2> MODE_CPU = 2;

const bit<8> FLAG_END_OF_MESSAGE = 1;   // onepipe_t.flags: the message's last fragment
const bit<8> FLAG_JOIN = 2;   // a beacon to a port that is out: msg_ts is the barrier to pass
const bit<8> FLAG_SEQUENCE_ERROR = 4;   // a prepare ACK for a segment beyond the next expected

#define BARRIER_MAX 48w0xffffffffffff

/* Section 6.1: 24 bytes after the UDP header (or after Ethernet, for beacons). */
header onepipe_t {
    bit<48> msg_ts;          // message timestamp, ns of the sender's clock
    bit<48> barrier;         // best-effort barrier
    bit<48> commit_barrier;  // reliable service's commit barrier (aggregated from beacons)
    bit<32> psn;
    bit<8>  opcode;
    bit<8>  flags;           // FLAG_END_OF_MESSAGE
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
    onepipe_t  onepipe;
}

struct metadata_t {
    ECMP_METADATA_FIELDS
    bit<32> up_ports;
    bit<9>  cpu_port;
    bit<48> timeout_us;
    bit<3>  onepipe_priority;
    bit<2>  mode;
    bit<1>  beacon_out;   // leaves as a beacon; egress decides per port
    bit<1>  tick;
    // A beacon broadcast: port p gets b_second if p is in b_group, else b_min (see ingress);
    // the same for the commit barrier.
    bit<48> b_min;
    bit<48> b_second;
    bit<32> b_group;
    bit<48> c_min;
    bit<48> c_second;
    bit<32> c_group;
    bit<32> join_ports;   // ports that are out: their beacon is a join (FLAG_JOIN)
    bit<48> join_up;      // their join timestamp for up ports, and for the others
    bit<48> join_down;
    bit<32> join_below;   // live ports below that get a join while blocked from above
    bit<48> join_above;   // with the join timestamp from above (not this switch's marks,
                          // which their own barriers raise)
}

#define MIN2(a, b) ((a) < (b) ? (a) : (b))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
/* A port's barrier if the port is in mask m, else the identity of min. */
#define LEAF(r, i, m) ((m)[i:i] == 1 ? r : BARRIER_MAX)

/* out := the minimum of the registers read as r0 .. r31 (READ_PORT_REGS) over the ports in
 * mask m. */
#define BARRIER_TREE(out, m, r)                                        \
    bit<48> out##_a0 = MIN2(LEAF(r##0, 0, m), LEAF(r##1, 1, m));       \
    bit<48> out##_a1 = MIN2(LEAF(r##2, 2, m), LEAF(r##3, 3, m));       \
    bit<48> out##_a2 = MIN2(LEAF(r##4, 4, m), LEAF(r##5, 5, m));       \
    bit<48> out##_a3 = MIN2(LEAF(r##6, 6, m), LEAF(r##7, 7, m));       \
    bit<48> out##_a4 = MIN2(LEAF(r##8, 8, m), LEAF(r##9, 9, m));       \
    bit<48> out##_a5 = MIN2(LEAF(r##10, 10, m), LEAF(r##11, 11, m));   \
    bit<48> out##_a6 = MIN2(LEAF(r##12, 12, m), LEAF(r##13, 13, m));   \
    bit<48> out##_a7 = MIN2(LEAF(r##14, 14, m), LEAF(r##15, 15, m));   \
    bit<48> out##_a8 = MIN2(LEAF(r##16, 16, m), LEAF(r##17, 17, m));   \
    bit<48> out##_a9 = MIN2(LEAF(r##18, 18, m), LEAF(r##19, 19, m));   \
    bit<48> out##_a10 = MIN2(LEAF(r##20, 20, m), LEAF(r##21, 21, m));  \
    bit<48> out##_a11 = MIN2(LEAF(r##22, 22, m), LEAF(r##23, 23, m));  \
    bit<48> out##_a12 = MIN2(LEAF(r##24, 24, m), LEAF(r##25, 25, m));  \
    bit<48> out##_a13 = MIN2(LEAF(r##26, 26, m), LEAF(r##27, 27, m));  \
    bit<48> out##_a14 = MIN2(LEAF(r##28, 28, m), LEAF(r##29, 29, m));  \
    bit<48> out##_a15 = MIN2(LEAF(r##30, 30, m), LEAF(r##31, 31, m));  \
    bit<48> out##_b0 = MIN2(out##_a0, out##_a1);                       \
    bit<48> out##_b1 = MIN2(out##_a2, out##_a3);                       \
    bit<48> out##_b2 = MIN2(out##_a4, out##_a5);                       \
    bit<48> out##_b3 = MIN2(out##_a6, out##_a7);                       \
    bit<48> out##_b4 = MIN2(out##_a8, out##_a9);                       \
    bit<48> out##_b5 = MIN2(out##_a10, out##_a11);                     \
    bit<48> out##_b6 = MIN2(out##_a12, out##_a13);                     \
    bit<48> out##_b7 = MIN2(out##_a14, out##_a15);                     \
    bit<48> out##_c0 = MIN2(out##_b0, out##_b1);                       \
    bit<48> out##_c1 = MIN2(out##_b2, out##_b3);                       \
    bit<48> out##_c2 = MIN2(out##_b4, out##_b5);                       \
    bit<48> out##_c3 = MIN2(out##_b6, out##_b7);                       \
    bit<48> out##_d0 = MIN2(out##_c0, out##_c1);                       \
    bit<48> out##_d1 = MIN2(out##_c2, out##_c3);                       \
    bit<48> out = MIN2(out##_d0, out##_d1);

/* Picks the smaller of (a, ai) and (b, bi); the left one on a tie. */
#define ARGMIN2(out, oi, a, ai, b, bi)                                 \
    bit<48> out = (a) <= (b) ? (a) : (b);                              \
    bit<32> oi = (a) <= (b) ? (ai) : (bi);

/* out := the minimum of r0 .. r31 over the ports in mask m, and out_port := a port holding it
 * (any port when m is empty and out is BARRIER_MAX). */
#define ARGMIN_TREE(out, m, r)                                                             \
    ARGMIN2(out##_a0, out##_i0, LEAF(r##0, 0, m), 0, LEAF(r##1, 1, m), 1)                  \
    ARGMIN2(out##_a1, out##_i1, LEAF(r##2, 2, m), 2, LEAF(r##3, 3, m), 3)                  \
    ARGMIN2(out##_a2, out##_i2, LEAF(r##4, 4, m), 4, LEAF(r##5, 5, m), 5)                  \
    ARGMIN2(out##_a3, out##_i3, LEAF(r##6, 6, m), 6, LEAF(r##7, 7, m), 7)                  \
    ARGMIN2(out##_a4, out##_i4, LEAF(r##8, 8, m), 8, LEAF(r##9, 9, m), 9)                  \
    ARGMIN2(out##_a5, out##_i5, LEAF(r##10, 10, m), 10, LEAF(r##11, 11, m), 11)            \
    ARGMIN2(out##_a6, out##_i6, LEAF(r##12, 12, m), 12, LEAF(r##13, 13, m), 13)            \
    ARGMIN2(out##_a7, out##_i7, LEAF(r##14, 14, m), 14, LEAF(r##15, 15, m), 15)            \
    ARGMIN2(out##_a8, out##_i8, LEAF(r##16, 16, m), 16, LEAF(r##17, 17, m), 17)            \
    ARGMIN2(out##_a9, out##_i9, LEAF(r##18, 18, m), 18, LEAF(r##19, 19, m), 19)            \
    ARGMIN2(out##_a10, out##_i10, LEAF(r##20, 20, m), 20, LEAF(r##21, 21, m), 21)          \
    ARGMIN2(out##_a11, out##_i11, LEAF(r##22, 22, m), 22, LEAF(r##23, 23, m), 23)          \
    ARGMIN2(out##_a12, out##_i12, LEAF(r##24, 24, m), 24, LEAF(r##25, 25, m), 25)          \
    ARGMIN2(out##_a13, out##_i13, LEAF(r##26, 26, m), 26, LEAF(r##27, 27, m), 27)          \
    ARGMIN2(out##_a14, out##_i14, LEAF(r##28, 28, m), 28, LEAF(r##29, 29, m), 29)          \
    ARGMIN2(out##_a15, out##_i15, LEAF(r##30, 30, m), 30, LEAF(r##31, 31, m), 31)          \
    ARGMIN2(out##_b0, out##_j0, out##_a0, out##_i0, out##_a1, out##_i1)                    \
    ARGMIN2(out##_b1, out##_j1, out##_a2, out##_i2, out##_a3, out##_i3)                    \
    ARGMIN2(out##_b2, out##_j2, out##_a4, out##_i4, out##_a5, out##_i5)                    \
    ARGMIN2(out##_b3, out##_j3, out##_a6, out##_i6, out##_a7, out##_i7)                    \
    ARGMIN2(out##_b4, out##_j4, out##_a8, out##_i8, out##_a9, out##_i9)                    \
    ARGMIN2(out##_b5, out##_j5, out##_a10, out##_i10, out##_a11, out##_i11)                \
    ARGMIN2(out##_b6, out##_j6, out##_a12, out##_i12, out##_a13, out##_i13)                \
    ARGMIN2(out##_b7, out##_j7, out##_a14, out##_i14, out##_a15, out##_i15)                \
    ARGMIN2(out##_c0, out##_k0, out##_b0, out##_j0, out##_b1, out##_j1)                    \
    ARGMIN2(out##_c1, out##_k1, out##_b2, out##_j2, out##_b3, out##_j3)                    \
    ARGMIN2(out##_c2, out##_k2, out##_b4, out##_j4, out##_b5, out##_j5)                    \
    ARGMIN2(out##_c3, out##_k3, out##_b6, out##_j6, out##_b7, out##_j7)                    \
    ARGMIN2(out##_d0, out##_l0, out##_c0, out##_k0, out##_c1, out##_k1)                    \
    ARGMIN2(out##_d1, out##_l1, out##_c2, out##_k2, out##_c3, out##_k3)                    \
    ARGMIN2(out, out##_port, out##_d0, out##_l0, out##_d1, out##_l1)

/* r0 .. r31 := the 32 cells of register reg. */
#define READ_PORT_REGS(reg, r)                                         \
    bit<48> r##0; reg.read(r##0, 0);                                   \
    bit<48> r##1; reg.read(r##1, 1);                                   \
    bit<48> r##2; reg.read(r##2, 2);                                   \
    bit<48> r##3; reg.read(r##3, 3);                                   \
    bit<48> r##4; reg.read(r##4, 4);                                   \
    bit<48> r##5; reg.read(r##5, 5);                                   \
    bit<48> r##6; reg.read(r##6, 6);                                   \
    bit<48> r##7; reg.read(r##7, 7);                                   \
    bit<48> r##8; reg.read(r##8, 8);                                   \
    bit<48> r##9; reg.read(r##9, 9);                                   \
    bit<48> r##10; reg.read(r##10, 10);                                \
    bit<48> r##11; reg.read(r##11, 11);                                \
    bit<48> r##12; reg.read(r##12, 12);                                \
    bit<48> r##13; reg.read(r##13, 13);                                \
    bit<48> r##14; reg.read(r##14, 14);                                \
    bit<48> r##15; reg.read(r##15, 15);                                \
    bit<48> r##16; reg.read(r##16, 16);                                \
    bit<48> r##17; reg.read(r##17, 17);                                \
    bit<48> r##18; reg.read(r##18, 18);                                \
    bit<48> r##19; reg.read(r##19, 19);                                \
    bit<48> r##20; reg.read(r##20, 20);                                \
    bit<48> r##21; reg.read(r##21, 21);                                \
    bit<48> r##22; reg.read(r##22, 22);                                \
    bit<48> r##23; reg.read(r##23, 23);                                \
    bit<48> r##24; reg.read(r##24, 24);                                \
    bit<48> r##25; reg.read(r##25, 25);                                \
    bit<48> r##26; reg.read(r##26, 26);                                \
    bit<48> r##27; reg.read(r##27, 27);                                \
    bit<48> r##28; reg.read(r##28, 28);                                \
    bit<48> r##29; reg.read(r##29, 29);                                \
    bit<48> r##30; reg.read(r##30, 30);                                \
    bit<48> r##31; reg.read(r##31, 31);

/* g := the group of port p: the inputs that cannot feed output p (p's own among them), 0 for
 * none. Up ports form one group (nothing from above goes up again); the others are the
 * control plane's port_group. */
#define GROUP_OF(g, p)                                                 \
    bit<32> g;                                                         \
    port_group.read(g, p);                                             \
    g = ((meta.up_ports >> (p)) & 1) == 1 ? meta.up_ports : g;

/* The ports whose barrier register (read as r0 .. r31) is BARRIER_MAX: a neighbour with
 * nothing live below it. */
#define MAX_BIT(r, i) (r##i == BARRIER_MAX ? 32w1 << i : 32w0)
#define MAX_MASK(out, r)                                                            \
    bit<32> out = MAX_BIT(r, 0) | MAX_BIT(r, 1) | MAX_BIT(r, 2) | MAX_BIT(r, 3) |   \
        MAX_BIT(r, 4) | MAX_BIT(r, 5) | MAX_BIT(r, 6) | MAX_BIT(r, 7) |             \
        MAX_BIT(r, 8) | MAX_BIT(r, 9) | MAX_BIT(r, 10) | MAX_BIT(r, 11) |           \
        MAX_BIT(r, 12) | MAX_BIT(r, 13) | MAX_BIT(r, 14) | MAX_BIT(r, 15) |         \
        MAX_BIT(r, 16) | MAX_BIT(r, 17) | MAX_BIT(r, 18) | MAX_BIT(r, 19) |         \
        MAX_BIT(r, 20) | MAX_BIT(r, 21) | MAX_BIT(r, 22) | MAX_BIT(r, 23) |         \
        MAX_BIT(r, 24) | MAX_BIT(r, 25) | MAX_BIT(r, 26) | MAX_BIT(r, 27) |         \
        MAX_BIT(r, 28) | MAX_BIT(r, 29) | MAX_BIT(r, 30) | MAX_BIT(r, 31);

#define EXPIRE_PORT(i, live, now, timeout)                                        \
    {                                                                             \
        bit<48> seen;                                                  \
        last_seen_us.read(seen, i);                                               \
        if (live[i:i] == 1 && now - seen > timeout) {                             \
            live = live & ~(32w1 << i);                                           \
        }                                                                         \
    }

#define EXPIRE_PORTS(live, now, timeout) \
    EXPIRE_PORT(0, live, now, timeout)   \
    EXPIRE_PORT(1, live, now, timeout)   \
    EXPIRE_PORT(2, live, now, timeout)   \
    EXPIRE_PORT(3, live, now, timeout)   \
    EXPIRE_PORT(4, live, now, timeout)   \
    EXPIRE_PORT(5, live, now, timeout)   \
    EXPIRE_PORT(6, live, now, timeout)   \
    EXPIRE_PORT(7, live, now, timeout)   \
    EXPIRE_PORT(8, live, now, timeout)   \
    EXPIRE_PORT(9, live, now, timeout)   \
    EXPIRE_PORT(10, live, now, timeout)  \
    EXPIRE_PORT(11, live, now, timeout)  \
    EXPIRE_PORT(12, live, now, timeout)  \
    EXPIRE_PORT(13, live, now, timeout)  \
    EXPIRE_PORT(14, live, now, timeout)  \
    EXPIRE_PORT(15, live, now, timeout)  \
    EXPIRE_PORT(16, live, now, timeout)  \
    EXPIRE_PORT(17, live, now, timeout)  \
    EXPIRE_PORT(18, live, now, timeout)  \
    EXPIRE_PORT(19, live, now, timeout)  \
    EXPIRE_PORT(20, live, now, timeout)  \
    EXPIRE_PORT(21, live, now, timeout)  \
    EXPIRE_PORT(22, live, now, timeout)  \
    EXPIRE_PORT(23, live, now, timeout)  \
    EXPIRE_PORT(24, live, now, timeout)  \
    EXPIRE_PORT(25, live, now, timeout)  \
    EXPIRE_PORT(26, live, now, timeout)  \
    EXPIRE_PORT(27, live, now, timeout)  \
    EXPIRE_PORT(28, live, now, timeout)  \
    EXPIRE_PORT(29, live, now, timeout)  \
    EXPIRE_PORT(30, live, now, timeout)  \
    EXPIRE_PORT(31, live, now, timeout)

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_ONEPIPE: parse_onepipe;
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
            ONEPIPE_PORT_BASE &&& ONEPIPE_PORT_MASK: parse_onepipe;
            default: accept;
        }
    }

    state parse_onepipe {
        packet.extract(hdr.onepipe);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    ECMP_DECLARATIONS

    register<bit<48>>(32) port_barrier;   // R[i]: the last barrier received on port i
    register<bit<48>>(32) last_seen_us;   // when port i last delivered a 1Pipe packet
    register<bit<32>>(1) live_ports;
    register<bit<48>>(2) high_water;      // highest barrier stamped on up (0), other (1) ports
    // Per port: the down ports in its group, which cannot feed it (control plane; 0: none).
    register<bit<32>>(32) port_group;
    // The last broadcast: (b_min, b_second, c_min, c_second) and (b_group, c_group).
    register<bit<48>>(4) last_broadcast;
    register<bit<32>>(2) last_groups;
    register<bit<48>>(1) join_above;      // the highest join timestamp from a port above
    register<bit<32>>(1) blocked_by;      // the ports above whose last beacon was a join
    // Reliable service: the commit barrier of each port, from its beacons; the ports it is
    // taken over (set by the control plane; a timeout does not remove a port, the
    // controller does); the highest commit barrier sent up (0) and to other ports (1).
    register<bit<48>>(32) port_commit;
    register<bit<32>>(1) commit_live;
    register<bit<48>>(2) commit_high;

    action configure(bit<32> up_ports, bit<9> cpu_port, bit<48> timeout_us, bit<3> priority,
                     bit<2> mode) {
        meta.up_ports = up_ports;
        meta.cpu_port = cpu_port;
        meta.timeout_us = timeout_us;
        meta.onepipe_priority = priority;
        meta.mode = mode;
    }

    table onepipe_config {
        actions = { configure; }
        default_action = configure(0, 255, 30, 0, 1);
    }

    action consume() {
        meta.drop_reason = DROP_CONSUMED;
        mark_to_drop(standard_metadata);
    }

    /* Sends the frame as beacons to every connected port; egress picks each port's barrier. */
    action broadcast_beacon(bit<48> b_min, bit<48> b_second, bit<32> b_group, bit<48> c_min,
                            bit<48> c_second, bit<32> c_group) {
        meta.b_min = b_min;
        meta.b_second = b_second;
        meta.b_group = b_group;
        meta.c_min = c_min;
        meta.c_second = c_second;
        meta.c_group = c_group;
        meta.beacon_out = 1;
        standard_metadata.mcast_grp = ALL_PORTS_GROUP;
        standard_metadata.priority = meta.onepipe_priority;
    }

    apply {
        onepipe_config.apply();
        bool is_beacon = hdr.onepipe.isValid() && hdr.ethernet.etherType == ETHERTYPE_ONEPIPE;
        // A reliable prepare segment carries no barrier (a retransmission's would be old).
        bool is_prepare = hdr.onepipe.isValid() && hdr.onepipe.opcode == OP_RDATA;
        bool aggregated = hdr.onepipe.isValid() && meta.mode == MODE_CHIP && !is_prepare;
        bit<32> live;
        live_ports.read(live, 0);
        bit<48> up_high;
        high_water.read(up_high, 0);
        bit<48> all_high;
        high_water.read(all_high, 1);

        if (aggregated) {
            if (standard_metadata.ingress_port == meta.cpu_port && hdr.onepipe.opcode == OP_TICK) {
                bit<48> now = standard_metadata.ingress_global_timestamp;
                bit<48> timeout = meta.timeout_us;
                EXPIRE_PORTS(live, now, timeout)
                live_ports.write(0, live);
                meta.tick = 1;
            } else {
                bit<32> in_port = (bit<32>)standard_metadata.ingress_port;
                bool from_up = ((meta.up_ports >> in_port) & 1) == 1;
                if (is_beacon) {
                    port_commit.write(in_port, hdr.onepipe.commit_barrier);
                    if (from_up) {
                        // A join from above: the neighbour there blocks this switch's
                        // barrier, so the ports below must pass its join timestamp too.
                        bit<32> blocking;
                        blocked_by.read(blocking, 0);
                        if ((hdr.onepipe.flags & FLAG_JOIN) != 0) {
                            bit<48> above;
                            join_above.read(above, 0);
                            join_above.write(0, MAX2(above, hdr.onepipe.msg_ts));
                            blocked_by.write(0, blocking | (32w1 << in_port));
                        } else {
                            blocked_by.write(0, blocking & ~(32w1 << in_port));
                        }
                    }
                }
                last_seen_us.write(in_port, standard_metadata.ingress_global_timestamp);
                // A port is out when it timed out, or when its neighbour sent the maximum
                // (nothing live below it): either way no stamp waited for it, and it is
                // admitted only above what this switch stamped for the outputs it feeds.
                bit<48> previous;
                port_barrier.read(previous, in_port);
                if (((live >> in_port) & 1) == 0 || previous == BARRIER_MAX) {
                    bit<48> admit_above = from_up ? all_high : MAX2(up_high, all_high);
                    if (hdr.onepipe.barrier <= admit_above) {
                        mark_to_drop(standard_metadata);    // blocked until admitted
                        return;
                    }
                    live = live | (32w1 << in_port);
                    live_ports.write(0, live);
                }
                port_barrier.write(in_port, hdr.onepipe.barrier);
            }

            if (meta.tick == 1 || is_beacon) {
                // Output p takes the minimum over the live inputs outside its group. The
                // smallest barrier, b_min, is outside every group but its own port's, b_group;
                // the ports of b_group get b_second, the minimum outside b_group.
                READ_PORT_REGS(port_barrier, r)
                ARGMIN_TREE(b_min, live, r)
                GROUP_OF(b_group, b_min_port)
                bit<32> b_rest = live & ~b_group;
                BARRIER_TREE(b_second, b_rest, r)
                // The commit barrier: the same over the commit inputs.
                bit<32> clive;
                commit_live.read(clive, 0);
                bit<48> c_up_high;
                commit_high.read(c_up_high, 0);
                bit<48> c_all_high;
                commit_high.read(c_all_high, 1);
                READ_PORT_REGS(port_commit, q)
                ARGMIN_TREE(c_min, clive, q)
                GROUP_OF(c_group, c_min_port)
                bit<32> c_rest = clive & ~c_group;
                BARRIER_TREE(c_second, c_rest, q)
                if (clive == 0) {
                    // No commit input at all (best effort sets none): the highest sent, 0 if
                    // none, up and down.
                    c_min = c_all_high;
                    c_second = c_up_high;
                    c_group = meta.up_ports;
                } else if (c_min == BARRIER_MAX) {
                    // Every commit input holds the maximum: as the barrier below.
                    c_min = c_all_high;
                    c_second = BARRIER_MAX;
                    c_group = meta.up_ports;
                }
                if (b_min == BARRIER_MAX) {
                    // No live input holds a barrier (a switch just recovered, or all it
                    // connects left): up ports get the maximum (nothing below holds them
                    // back), the other ports the highest sent to them, never the maximum, or
                    // hosts would raise their clocks to it. A port that some live input
                    // feeds never gets here; one fed by none while others are fed still gets
                    // the maximum, and its neighbour counts it out (see admission).
                    b_min = all_high;
                    b_second = BARRIER_MAX;
                    b_group = meta.up_ports;
                }
                bit<48> last_b_min;
                last_broadcast.read(last_b_min, 0);
                bit<48> last_b_second;
                last_broadcast.read(last_b_second, 1);
                bit<48> last_c_min;
                last_broadcast.read(last_c_min, 2);
                bit<48> last_c_second;
                last_broadcast.read(last_c_second, 3);
                bit<32> last_b_group;
                last_groups.read(last_b_group, 0);
                bit<32> last_c_group;
                last_groups.read(last_c_group, 1);
                // A beacon is triggered when a minimum advanced or its group changed.
                if (meta.tick == 0 && b_min <= last_b_min && b_second <= last_b_second &&
                    b_group == last_b_group && c_min <= last_c_min &&
                    c_second <= last_c_second && c_group == last_c_group) {
                    consume();      // nothing new to tell the neighbours
                    return;
                }
                last_broadcast.write(0, b_min);
                last_broadcast.write(1, b_second);
                last_broadcast.write(2, c_min);
                last_broadcast.write(3, c_second);
                last_groups.write(0, b_group);
                last_groups.write(1, c_group);
                // High-water marks: the most sent up and to the other ports. The maximum
                // (no input feeds the port) does not count, so a returning port is admitted.
                bit<48> to_up = (b_group & meta.up_ports) != 0 ? b_second : b_min;
                bit<48> to_down = (b_group & ~meta.up_ports) != 0 && b_second != BARRIER_MAX
                                  ? b_second : b_min;
                if (to_up > up_high && to_up != BARRIER_MAX) {
                    high_water.write(0, to_up);
                }
                if (to_down > all_high && to_down != BARRIER_MAX) {
                    high_water.write(1, to_down);
                }
                bit<48> c_to_up = (c_group & meta.up_ports) != 0 ? c_second : c_min;
                bit<48> c_to_down = (c_group & ~meta.up_ports) != 0 ? c_second : c_min;
                if (c_to_up > c_up_high) {
                    commit_high.write(0, c_to_up);
                }
                if (c_to_down > c_all_high) {
                    commit_high.write(1, c_to_down);
                }
                // The join (the total-order-scattering abstract's): a port that is out, and
                // every port below while a neighbour above blocks this switch, is told the
                // timestamp its barrier must pass to be admitted (the marks after this
                // broadcast), so that a host behind the others can raise its clock past it.
                bit<48> above;
                join_above.read(above, 0);
                bit<32> blocking;
                blocked_by.read(blocking, 0);
                bit<48> up_mark = to_up > up_high && to_up != BARRIER_MAX ? to_up : up_high;
                bit<48> down_mark = to_down > all_high && to_down != BARRIER_MAX ? to_down
                                                                                : all_high;
                MAX_MASK(max_ports, r)
                meta.join_ports = ~live | max_ports;
                meta.join_below = blocking != 0 ? ~meta.up_ports : 32w0;
                meta.join_up = down_mark;
                meta.join_down = MAX2(MAX2(up_mark, down_mark), above);
                meta.join_above = above;
                broadcast_beacon(b_min, b_second, b_group, c_min, c_second, c_group);
                return;
            }
        }
        if (is_beacon) {
            if (meta.mode == MODE_CPU) {
                if (standard_metadata.ingress_port == meta.cpu_port) {
                    // packet-out: the CPU names the output port in the PSN field
                    standard_metadata.egress_spec = (bit<9>)hdr.onepipe.psn;
                } else {
                    standard_metadata.egress_spec = meta.cpu_port;
                }
                standard_metadata.priority = meta.onepipe_priority;
            } else {
                consume();
            }
            return;
        }
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(standard_metadata);
            return;
        }
        ECMP_FORWARD()
        if (is_prepare) {
            standard_metadata.priority = meta.onepipe_priority;
            if (meta.mode == MODE_CHIP) {
                // A prepare is a data packet: its port is alive (paper 4.2: the timeout is
                // "no beacon or data packet"). Otherwise a host whose uplink is busy with
                // prepares would time out while its beacons wait behind them.
                last_seen_us.write((bit<32>)standard_metadata.ingress_port,
                                   standard_metadata.ingress_global_timestamp);
            }
        }
        if (aggregated && standard_metadata.egress_spec != DROP_PORT) {
            bit<32> out_port = (bit<32>)standard_metadata.egress_spec;
            bit<1> going_up = (bit<1>)((meta.up_ports >> out_port) & 1);
            GROUP_OF(out_group, out_port)
            bit<32> inputs = live & ~out_group;
            READ_PORT_REGS(port_barrier, r)
            BARRIER_TREE(b, inputs, r)
            // Never above the packet's own barrier: a packet from an input in the output's
            // group (routes that are not up-down, e.g. after a failure) is not covered.
            bit<48> stamped = MIN2(b, hdr.onepipe.barrier);
            hdr.onepipe.barrier = stamped;
            standard_metadata.priority = meta.onepipe_priority;
            bit<48> high = going_up == 1 ? up_high : all_high;
            if (stamped > high) {
                high_water.write((bit<32>)(going_up ^ 1), stamped);
            }
        }
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    register<bit<48>>(32) sent_barrier;   // the last barrier sent on each port
    register<bit<48>>(32) sent_commit;    // the last commit barrier sent on each port
    register<bit<1>>(32) busy;            // the port carried a 1Pipe packet since the last tick
    counter(32, CounterType.packets) beacons_sent;

    apply {
        if (!hdr.onepipe.isValid() || meta.mode != MODE_CHIP || hdr.onepipe.opcode == OP_RDATA) {
            return;
        }
        bit<32> port = (bit<32>)standard_metadata.egress_port;
        if (meta.beacon_out == 0) {
            busy.write(port, 1);
            sent_barrier.write(port, hdr.onepipe.barrier);
            return;
        }
        bit<48> b = ((meta.b_group >> port) & 1) == 1 ? meta.b_second : meta.b_min;
        bit<48> c = ((meta.c_group >> port) & 1) == 1 ? meta.c_second : meta.c_min;
        bit<48> sent;
        sent_barrier.read(sent, port);
        bit<48> sent_c;
        sent_commit.read(sent_c, port);
        bit<1> was_busy;
        busy.read(was_busy, port);
        bool idle_tick = meta.tick == 1 && was_busy == 0;
        if (meta.tick == 1) {
            busy.write(port, 0);
        }
        bool is_out = ((meta.join_ports >> port) & 1) == 1;
        bool join = is_out || ((meta.join_below >> port) & 1) == 1;
        if (b <= sent && c <= sent_c && !idle_tick) {
            meta.drop_reason = DROP_CONSUMED;
            mark_to_drop(standard_metadata);
            return;
        }
        sent_barrier.write(port, b);
        sent_commit.write(port, c);
        if (meta.tick == 0) {
            busy.write(port, 1);    // a triggered beacon also spares the port the next tick's
        }
        beacons_sent.count(port);
        hdr.ethernet.dstAddr = 0xffffffffffff;
        hdr.ethernet.etherType = ETHERTYPE_ONEPIPE;
        hdr.ipv4.setInvalid();
        hdr.udp.setInvalid();
        hdr.onepipe.opcode = OP_BEACON;
        hdr.onepipe.msg_ts = b;
        hdr.onepipe.barrier = b;
        hdr.onepipe.commit_barrier = c;
        hdr.onepipe.flags = 0;
        if (join) {
            hdr.onepipe.msg_ts = meta.join_above;
            if (is_out) {
                hdr.onepipe.msg_ts = ((meta.up_ports >> port) & 1) == 1 ? meta.join_up
                                                                        : meta.join_down;
            }
            hdr.onepipe.flags = FLAG_JOIN;
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
        packet.emit(hdr.onepipe);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
