// More of the subset: direct counters, action selectors, ranges in entries, lookahead into a
// header, field names that are P4 keywords, log_msg, clone and resubmit, casts in expressions.
// Must parse with no diagnostics.
#include <core.p4>
#include <v1model.p4>

#define MAX_PORTS 64
const bit<8> CALC_P = 0x50;   // 'P'

typedef bit<9> port_t;

header calc_t {
    bit<8> p;
    bit<8> op;
    bit<32> operand;
}

header option_t {
    bit<16> type;       // field names may be contextual keywords
    bit<3> priority;
    bit<8> key;
}

struct headers_t {
    calc_t calc;
    option_t option;
}

struct metadata_t {
    bit<16> slot;
    @field_list(1)
    bit<32> value;
    error parse_status;
}

error {
    NotCalc
}

parser MyParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    bit<32> scratch;

    state start {
        scratch = 0;
        transition select(packet.lookahead<calc_t>().p, packet.lookahead<calc_t>().op) {
            (CALC_P, 1 .. 3): parse_calc;
            default: parse_option;
        }
    }

    state parse_calc {
        packet.extract(hdr.calc);
        verify(hdr.calc.p == CALC_P, error.NotCalc);
        transition accept;
    }

    state parse_option {
        packet.extract(hdr.option);
        transition select(hdr.option.type) {
            16w0x1 &&& 16w0xff: accept;
            0x0100 .. 0x01ff: accept;
        }
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) calc_hits;
    action_selector(HashAlgorithm.crc16, 32w128, 32w8) port_selector;
    counter(MAX_PORTS, CounterType.packets) port_counter;
    meter(32w16, MeterType.bytes) port_meter;

    action set_port(port_t port) {
        standard_metadata.egress_spec = port;
    }

    action answer(bit<32> value) {
        hdr.calc.operand = value;
        calc_hits.count();
    }

    action mirror(bit<32> session) {
        clone(CloneType.I2E, session);
        clone_preserving_field_list(CloneType.I2E, session, 1);
    }

    table calculate {
        key = {
            hdr.calc.op: exact;
            hdr.calc.operand: range;
            hdr.option.key: optional;
        }
        actions = {
            answer;
            mirror;
            NoAction;
        }
        const default_action = NoAction();
        counters = calc_hits;
        const entries = {
            (1, 0 .. 100, _): answer(32w1);
            (2, 101 .. 200, 8w7): answer(32w2);
        }
    }

    table balance {
        key = {
            hdr.calc.op: exact;
            meta.slot: selector;
        }
        actions = {
            set_port;
        }
        implementation = port_selector;
        size = 256;
    }

    apply {
        bit<8> color;
        if (hdr.calc.isValid()) calculate.apply();
        if (!(balance.apply().hit)) {
            resubmit_preserving_field_list(1);
        }
        port_counter.count((bit<32>)standard_metadata.ingress_port);
        port_meter.execute_meter((bit<32>)standard_metadata.ingress_port, color);
        if (color == V1MODEL_METER_COLOR_RED) {
            mark_to_drop(standard_metadata);
        }
        meta.value = (bit<32>)(hdr.calc.operand - ((bit<32>)hdr.calc.op << 2));
        log_msg("operand = {}, color = {}", { hdr.calc.operand, color });
        if (standard_metadata.parser_error != error.NoError) {
            meta.parse_status = standard_metadata.parser_error;
        }
        hdr.option.priority = standard_metadata.priority;
        standard_metadata.priority = 3w7;
    }
}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type != 0) {
            truncate(32w64);
        }
    }
}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
