/*
 * incsim's v1model.p4: the v1model architecture (the BMv2 simple_switch model), written for
 * incsim from the architecture's documentation. Names, types and signatures follow the v1model
 * that p4c ships, version gates included, so a program compiles with incsim exactly when it
 * compiles with p4c. A program says which version it is written for by defining
 * V1MODEL_VERSION before the #include (p4c's default is 20180101):
 *   - 20180101: no PortId_t (ports are bit<9>); register<T>, counter and meter index with
 *     bit<32>;
 *   - 20200408 and later: typedef bit<9> PortId_t; register<T, I>, counter<I> and meter<I>
 *     take the index type as a type parameter (register<bit<32>, bit<32>>(N)).
 *
 * incsim's compiler checks programs against these declarations: this file is the architecture
 * description, not a copy of knowledge kept elsewhere.
 */

#ifndef _V1_MODEL_P4_
#define _V1_MODEL_P4_

#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20180101
#endif

#include "core.p4"

/* Lets programs test the version at compile time as well as with #if. */
const bit<32> __v1model_version = V1MODEL_VERSION;

/* Match kinds v1model adds to exact, ternary and lpm. */
match_kind {
    range,      /* low <= field <= high */
    optional,   /* exact, or a wildcard */
    selector    /* hashed into an action selector group */
}

#if V1MODEL_VERSION >= 20200408
typedef bit<9> PortId_t;
#endif

/* Metadata the switch provides with every packet. The names and widths are BMv2's. */
@metadata @name("standard_metadata")
struct standard_metadata_t {
#if V1MODEL_VERSION >= 20200408
    PortId_t ingress_port;      /* where the packet came in */
    PortId_t egress_spec;       /* set by ingress: the output port (511 drops) */
    PortId_t egress_port;       /* in egress: the port the packet is leaving by */
#else
    bit<9> ingress_port;
    bit<9> egress_spec;
    bit<9> egress_port;
#endif
    bit<32> instance_type;      /* normal, clone, resubmit, recirculate, replica */
    bit<32> packet_length;      /* bytes */
    @alias("queueing_metadata.enq_timestamp")
    bit<32> enq_timestamp;      /* microseconds, when the packet joined the queue */
    @alias("queueing_metadata.enq_qdepth")
    bit<19> enq_qdepth;         /* queue depth (packets) when it joined */
    @alias("queueing_metadata.deq_timedelta")
    bit<32> deq_timedelta;      /* microseconds it spent queued */
    @alias("queueing_metadata.deq_qdepth")
    bit<19> deq_qdepth;         /* queue depth (packets) when it left */
    @alias("intrinsic_metadata.ingress_global_timestamp")
    bit<48> ingress_global_timestamp;   /* microseconds, at ingress */
    @alias("intrinsic_metadata.egress_global_timestamp")
    bit<48> egress_global_timestamp;    /* microseconds, at egress */
    @alias("intrinsic_metadata.mcast_grp")
    bit<16> mcast_grp;          /* set by ingress: multicast group, 0 for none */
    @alias("intrinsic_metadata.egress_rid")
    bit<16> egress_rid;         /* replica id of a multicast copy */
    bit<1> checksum_error;      /* set when verify_checksum found a bad checksum */
    error parser_error;         /* how the parser ended */
    @alias("intrinsic_metadata.priority")
    bit<3> priority;            /* queue priority */
}

enum CounterType {
    packets,
    bytes,
    packets_and_bytes
}

enum MeterType {
    packets,
    bytes
}

/* An array of packet and/or byte counters, indexed from 0 to size - 1. */
#if V1MODEL_VERSION >= 20200408
extern counter<I> {
    counter(bit<32> size, CounterType type);
    /* Count this packet at index (ignored when index >= size). */
    void count(in I index);
}
#else
extern counter {
    counter(bit<32> size, CounterType type);
    void count(in bit<32> index);
}
#endif

/* A counter per entry of the one table that names it in its `counters` property. */
extern direct_counter {
    direct_counter(CounterType type);
    /* Counting happens when the entry matches; calling this changes nothing. */
    void count();
}

/* Values execute_meter() writes. */
#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

/* An array of two-rate three-color meters (RFC 2698). */
#if V1MODEL_VERSION >= 20200408
extern meter<I> {
    meter(bit<32> size, MeterType type);
    /* Meter this packet at index; result gets the color (a bit<W>, W >= 2). */
    void execute_meter<T>(in I index, out T result);
}
#else
extern meter {
    meter(bit<32> size, MeterType type);
    void execute_meter<T>(in bit<32> index, out T result);
}
#endif

/* A meter per entry of the one table that names it in its `meters` property. */
extern direct_meter<T> {
    direct_meter(MeterType type);
    /* The color of the entry that matched (only in that table's actions). */
    void read(out T result);
}

/* An array of size values of type T (a bit<W>) that packets read and write. */
#if V1MODEL_VERSION >= 20200408
extern register<T, I> {
    register(bit<32> size);
    /* The value at index (unspecified when index >= size). */
    @noSideEffects
    void read(out T result, in I index);
    /* Store value at index (nothing happens when index >= size). */
    void write(in I index, in T value);
}
#else
extern register<T> {
    register(bit<32> size);
    @noSideEffects
    void read(out T result, in bit<32> index);
    void write(in bit<32> index, in T value);
}
#endif

/* Shared action data for a table's `implementation` property. */
extern action_profile {
    action_profile(bit<32> size);
}

/* A uniformly random value in lo..hi (inclusive). */
extern void random<T>(out T result, in T lo, in T hi);

/* Send data to the control plane; receiver is ignored by BMv2. */
extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
    crc32,
    crc32_custom,
    crc16,
    crc16_custom,
    random,
    identity,
    csum16,
    xor16
}

/* Drop the packet at the end of this pipeline: sets egress_spec to the drop port and
   mcast_grp to 0. Later code may still change them. */
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result = base + (algo(data) mod max), or base when max is 0. data is a list of fields. */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo,
                             in T base, in D data, in M max);

/* Groups of action data picked by hashing the `selector` key fields. */
extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

enum CloneType {
    I2E,    /* from ingress, a copy that starts in egress */
    E2E     /* from egress, a copy that starts again in egress */
}

@deprecated("Please use verify_checksum/update_checksum instead.")
extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

/* In the VerifyChecksum control: when condition holds, check that checksum is algo(data);
   on a mismatch, standard_metadata.checksum_error becomes 1. */
extern void verify_checksum<T, O>(in bool condition, in T data,
                                  in O checksum, HashAlgorithm algo);

/* In the ComputeChecksum control: when condition holds, set checksum to algo(data). */
extern void update_checksum<T, O>(in bool condition, in T data,
                                  inout O checksum, HashAlgorithm algo);

/* The same two, with the unparsed payload appended to data. */
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data,
                                               in O checksum, HashAlgorithm algo);
extern void update_checksum_with_payload<T, O>(in bool condition, in T data,
                                               inout O checksum, HashAlgorithm algo);

/* Send the packet through ingress again after this pass; the user metadata fields annotated
   @field_list(index) keep their values. */
extern void resubmit_preserving_field_list(bit<8> index);

/* Send the packet back to the parser after the deparser, keeping @field_list(index) fields. */
extern void recirculate_preserving_field_list(bit<8> index);

/* Make a copy of the packet for mirror session `session`, starting in egress. */
extern void clone(in CloneType type, in bit<32> session);

/* The same, keeping the user metadata fields annotated @field_list(index). */
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);

/* Older forms that took the preserved fields as a list. */
@deprecated("Please use 'resubmit_preserving_field_list' instead")
extern void resubmit<T>(in T data);
@deprecated("Please use 'recirculate_preserving_field_list' instead")
extern void recirculate<T>(in T data);
@deprecated("Please use 'clone_preserving_field_list' instead")
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);

/* Send at most length bytes of the packet out. */
extern void truncate(in bit<32> length);

/* Debugging aids: stop (BMv2 aborts) when check is false. */
extern void assert(in bool check);
extern void assume(in bool check);

/* Write a message to the switch log; {} in msg is replaced by the fields of data. */
extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* The six programmable blocks. H is the struct of headers, M the user metadata struct. */
parser Parser<H, M>(packet_in b,
                    out H parsedHdr,
                    inout M meta,
                    inout standard_metadata_t standard_metadata);

/* Only verify_checksum calls, blocks and return here. */
control VerifyChecksum<H, M>(inout H hdr,
                             inout M meta);

@pipeline
control Ingress<H, M>(inout H hdr,
                      inout M meta,
                      inout standard_metadata_t standard_metadata);

@pipeline
control Egress<H, M>(inout H hdr,
                     inout M meta,
                     inout standard_metadata_t standard_metadata);

/* Only update_checksum calls, blocks and return here. */
control ComputeChecksum<H, M>(inout H hdr,
                              inout M meta);

/* Only packet_out.emit calls here. */
@deparser
control Deparser<H>(packet_out b, in H hdr);

/* The switch: programs instantiate it as `V1Switch(...) main;`. */
package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep);

#endif /* _V1_MODEL_P4_ */
