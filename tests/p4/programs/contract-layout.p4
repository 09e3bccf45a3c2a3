/*
 * contract-layout.p4: a program for the contract generator (tests/unit/test-p4-contract.cc,
 * whose golden copy of its contract is tests/p4/contract/contract-layout-contract.h): constants
 * of every kind, plain, serializable and signed enums, errors, typedefs, nested structs, a
 * header stack, tables, actions, registers and counters, and names C++ would not take as they
 * are (class, linux, kSource, a field called Type, a parameter called kName).
 *
 * Packet: outer_t (17 bytes: etherType, pri:3 flags:5, kind, a:12 b:12, wide:72, count), then
 * count item_t (2 bytes: Type, kName), at most SLOTS. Ingress: b := a + 1, flags := flags ^ 1,
 * items[0].kName := items[0].Type, and out of port 1 (port 2 after a parser error).
 */
// The v1model version (p4c's V1MODEL_VERSION) this program is written for: ports are bit<9>.
#define V1MODEL_VERSION 20180101
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_CONTRACT = 0x88b6;
const bit<32> SLOTS = 4;
const int<8> MINUS_TWO = -2;
const bool ENABLED = true;
const int BIG = 1 << 40;
const bit<128> WIDE = 0x0102030405060708090a0b0c0d0e0f10;
const bit<8> class = 7;
const bit<8> linux = 1;
const bit<8> kSource = 2;
const bit<32> TWICE_SLOTS = SLOTS * 2;

typedef bit<9> port_t;

enum Color { Red, Green, Blue }
enum bit<8> Kind { Small = 1, Large = 0x80 }
enum int<8> Delta { Down = -1, Up = 1 }

const Kind DEFAULT_KIND = Kind.Large;

error { BadKind }

header outer_t {
    bit<16> etherType;
    bit<3>  pri;
    bit<5>  flags;
    Kind    kind;
    bit<12> a;
    bit<12> b;
    bit<72> wide;
    bit<8>  count;
}

header item_t {
    bit<8> Type;
    bit<8> kName;
}

struct inner_t {
    bit<8> x;
    Color  c;
    bool   flag;
}

struct headers_t {
    outer_t          outer;
    item_t[SLOTS]    items;
}

struct metadata_t {
    inner_t inner;
    port_t  port;
    int<8>  delta;
    bit<8>  left;
}

action top_level(inout metadata_t meta) {
    meta.inner.x = 1;
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    const bit<8> NO_ITEMS = 0;

    state start {
        packet.extract(hdr.outer);
        meta.left = hdr.outer.count;
        transition select(hdr.outer.count) {
            NO_ITEMS: accept;
            default: parse_item;
        }
    }

    state parse_item {
        packet.extract(hdr.items.next);
        meta.left = meta.left - 1;
        transition select(meta.left) {
            0: accept;
            default: parse_item;
        }
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    const bit<8> LOCAL = 3;

    register<bit<12>>(TWICE_SLOTS) last_a;
    counter(SLOTS, CounterType.packets) hits;

    action set_port(port_t port, bit<8> kName) {
        meta.port = port;
        meta.inner.x = kName;
    }

    table config {
        key = {
            hdr.outer.kind: exact @name("kind");
            hdr.outer.etherType: ternary;
        }
        actions = { set_port; NoAction; }
        default_action = NoAction();
        size = TWICE_SLOTS;
    }

    apply {
        config.apply();
        last_a.write(0, hdr.outer.a);
        hits.count(0);
        hdr.outer.b = hdr.outer.a + 1;
        hdr.outer.flags = hdr.outer.flags ^ 1;
        if (hdr.items[0].isValid()) {
            hdr.items[0].kName = hdr.items[0].Type;
        }
        standard_metadata.egress_spec =
            standard_metadata.parser_error == error.NoError ? 9w1 : 9w2;
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
        packet.emit(hdr.outer);
        packet.emit(hdr.items);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
