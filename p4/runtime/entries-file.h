#ifndef INCSIM_P4RT_ENTRIES_FILE_H
#define INCSIM_P4RT_ENTRIES_FILE_H

// Control-plane state from a JSON file: table entries, default actions, multicast groups,
// clone sessions and register contents, all by P4 name (docs/entries.md).
//
// {
//   "tables": [
//     {"table": "MyIngress.ipv4_lpm", "match": {"hdr.ipv4.dstAddr": "10.0.0.0/8"},
//      "action": "set_nhop", "params": {"port": 1, "dmac": "00:00:00:00:00:01"}},
//     {"table": "acl", "match": {"hdr.ipv4.srcAddr": "10.0.0.0&&&255.0.0.0"},
//      "action": "drop", "priority": 10},
//     {"table": "ipv4_lpm", "default_action": true, "action": "drop"}
//   ],
//   "multicast_groups": [
//     {"id": 1, "ports": [1, 2, 3]},                      (rid 0 for every copy)
//     {"id": 2, "replicas": [{"port": 1, "rid": 7}]}
//   ],
//   "clone_sessions": [{"id": 5, "port": 255}],
//   "registers": [
//     {"register": "MyIngress.seq", "index": 0, "value": 5},
//     {"register": "MyIngress.epoch", "values": [1, 2, 3]}   (from "index", default 0)
//   ]
// }
//
// Every key is optional except where an entry needs it ("table", "action", "id", ...).
// Values are JSON non-negative integers or strings in the forms of value-parse.h: decimal,
// "0x..", "0b..", IPv4 dotted quads, MACs "aa:bb:cc:dd:ee:ff", IPv6; match values add
// "value/len" (lpm), "value&&&mask" (ternary) and "*" (wildcard). Omitted lpm, ternary and
// optional key fields are wildcards; exact ones are required. "priority" (default 0) matters
// for tables with ternary/optional fields only: the higher number wins.
//
// Errors throw p4rt::Error reading "FILE: /json/pointer: message", e.g.
// "entries.json: /tables/3/match/hdr.ipv4.dstAddr: table MyIngress.ipv4_lpm: field ...".
// Unknown keys are errors. Items are applied in file order; on an error, items before it
// stay applied.

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace incsim::p4rt
{

class ControlPlane;

/// `fileName` only labels errors.
void LoadEntriesJson(ControlPlane& control, const nlohmann::json& doc, const std::string& fileName);

} // namespace incsim::p4rt

#endif
