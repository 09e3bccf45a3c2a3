/*
 * IPv4 forwarding with ECMP, shared by the switch programs in p4/. The destination address
 * picks an ECMP group by longest prefix, the group gives its member count, a member index is
 * chosen (per flow: crc32 of the 5-tuple times a per-switch odd salt, or per packet, round
 * robin "spray"), and the (group, index) member gives the output port. The TTL is decremented
 * (packets arriving with TTL <= 1 are dropped) and the queue priority is taken from the DSCP
 * (diffserv[4:2]).
 *
 * Use: the program's metadata struct has the fields of ECMP_METADATA_FIELDS and its headers
 * hdr.ipv4 and hdr.udp; ECMP_DECLARATIONS goes inside the ingress control, and
 * ECMP_FORWARD() in its apply block. The tables keep their names in MyIngress.
 *
 * Control-plane contract (the simulator's EcmpRouteInstaller writes these by name):
 *   MyIngress.ipv4_route   key hdr.ipv4.dstAddr (lpm): one entry per destination prefix,
 *                          action set_ecmp_group(group); miss -> drop_no_route.
 *   MyIngress.ecmp_group   key meta.ecmp_group (exact): one entry per distinct set of live
 *                          output ports, action set_group_size(count); a group whose ports are
 *                          all down is deleted, so a miss -> drop_no_route.
 *   MyIngress.ecmp_member  keys meta.ecmp_group, meta.ecmp_index (exact): rows with index
 *                          0 .. count-1 of each group, action set_port(port).
 *   MyIngress.ecmp_mode    keyless; its default action is set once per switch:
 *                          flow_hash(salt) (the default, salt 0) or spray().
 *   MyIngress.spray_next   register<bit<32>>(1): spray mode's packet counter (cell 0). It
 *                          only advances for packets routed to a group of 2 or more members.
 */
#ifndef INCSIM_P4_LIB_ECMP
#define INCSIM_P4_LIB_ECMP

#define ECMP_METADATA_FIELDS                                                    \
    bit<16> ecmp_group;     /* from ipv4_route */                               \
    bit<16> ecmp_count;     /* members in the group, from ecmp_group */         \
    bit<16> ecmp_index;     /* chosen member, 0 .. ecmp_count-1 */              \
    bit<32> ecmp_salt;      /* flow mode's per-switch hash salt */              \
    bit<8>  drop_reason;    /* DROP_* (read by the simulator) */                \
    bit<1>  ecmp_spray;     /* 1: per-packet spraying, 0: per-flow hashing */   \
    bit<16> l4_src;         /* UDP ports for the flow hash (0 when not UDP) */  \
    bit<16> l4_dst;

#define ECMP_DECLARATIONS                                                       \
    register<bit<32>>(1) spray_next;                                            \
                                                                                \
    action drop_no_route() {                                                    \
        meta.drop_reason = DROP_NO_ROUTE;                                       \
        mark_to_drop(standard_metadata);                                        \
    }                                                                           \
    action set_ecmp_group(bit<16> group) { meta.ecmp_group = group; }           \
    action set_group_size(bit<16> count) { meta.ecmp_count = count; }           \
    action flow_hash(bit<32> salt) {                                            \
        meta.ecmp_salt = salt;                                                  \
        meta.ecmp_spray = 0;                                                    \
    }                                                                           \
    action spray() { meta.ecmp_spray = 1; }                                     \
    action set_port(bit<9> port) { standard_metadata.egress_spec = port; }      \
                                                                                \
    table ipv4_route {                                                          \
        key = { hdr.ipv4.dstAddr: lpm; }                                        \
        actions = { set_ecmp_group; drop_no_route; }                            \
        default_action = drop_no_route();                                       \
        size = 65536;                                                           \
    }                                                                           \
    table ecmp_group {                                                          \
        key = { meta.ecmp_group: exact; }                                       \
        actions = { set_group_size; drop_no_route; }                            \
        default_action = drop_no_route();                                       \
    }                                                                           \
    table ecmp_mode {                                                           \
        actions = { flow_hash; spray; }                                         \
        default_action = flow_hash(0);                                          \
    }                                                                           \
    table ecmp_member {                                                         \
        key = { meta.ecmp_group: exact; meta.ecmp_index: exact; }               \
        actions = { set_port; drop_no_route; }                                  \
        default_action = drop_no_route();                                       \
    }

/* Returns from the apply block when the packet is dropped for its TTL; otherwise sets
 * egress_spec (or drops with DROP_NO_ROUTE). crc32 is linear: a salt mixed into its input or
 * output shifts every switch's choice in step, so all tiers would pick the same member index
 * and paths would polarise. Multiplying by the (odd) salt and keeping the high bits
 * decorrelates the switches. Max 0xffffffff: BMv2 reduces modulo max. */
#define ECMP_FORWARD()                                                          \
    if (hdr.ipv4.ttl <= 1) {                                                    \
        meta.drop_reason = DROP_TTL_EXPIRED;                                    \
        mark_to_drop(standard_metadata);                                        \
        return;                                                                 \
    }                                                                           \
    hdr.ipv4.ttl = hdr.ipv4.ttl - 1;                                            \
    standard_metadata.priority = hdr.ipv4.diffserv[4:2];                        \
    switch (ipv4_route.apply().action_run) {                                    \
        set_ecmp_group: {                                                       \
            switch (ecmp_group.apply().action_run) {                            \
                set_group_size: {                                               \
                    meta.ecmp_index = 0;                                        \
                    if (meta.ecmp_count > 1) {                                  \
                        ecmp_mode.apply();                                      \
                        if (meta.ecmp_spray == 1) {                             \
                            bit<32> sprayed;                                    \
                            spray_next.read(sprayed, 0);                        \
                            hash(meta.ecmp_index, HashAlgorithm.identity, 16w0, \
                                 { sprayed }, meta.ecmp_count);                 \
                            spray_next.write(0, sprayed + 1);                   \
                        } else {                                                \
                            if (hdr.udp.isValid()) {                            \
                                meta.l4_src = hdr.udp.srcPort;                  \
                                meta.l4_dst = hdr.udp.dstPort;                  \
                            } else {                                            \
                                meta.l4_src = 0;                                \
                                meta.l4_dst = 0;                                \
                            }                                                   \
                            bit<32> flow;                                       \
                            hash(flow, HashAlgorithm.crc32, 32w0,               \
                                 { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr,          \
                                   hdr.ipv4.protocol, meta.l4_src,              \
                                   meta.l4_dst },                               \
                                 32w0xffffffff);                                \
                            bit<32> mixed = flow * (meta.ecmp_salt | 1);        \
                            hash(meta.ecmp_index, HashAlgorithm.identity, 16w0, \
                                 { mixed[31:16] }, meta.ecmp_count);            \
                        }                                                       \
                    }                                                           \
                    ecmp_member.apply();                                        \
                }                                                               \
            }                                                                   \
        }                                                                       \
    }

#endif
