#ifndef INCSIM_TOPOLOGY_TOPOLOGY_FILE_H
#define INCSIM_TOPOLOGY_TOPOLOGY_FILE_H

#include "sim/schema/schema.h"
#include "sim/topology/topology.h"

#include <nlohmann/json.hpp>

#include <string>

namespace incsim
{

/// The static loss rate of a link (/links/loss, a topology file's links): in [0, 1).
Spec LossRateSpec();

/// Schema of a topology file (docs/topology-file.md):
///   {"nodes": [{"name": "h0", "kind": "host", "layer": 0, "group": -1}, ...],
///    "links": [{"a": "h0", "b": "s0", "rate": "10Gbps", "delay": "2us",
///               "buffer": "64KiB", "loss": 0.0}, ...]}
/// Per-link fields default to the scenario's /links values; layer defaults to 0 for hosts and
/// 1 for switches, group to -1.
Spec TopologyFileSpec();

/// Builds a topology from a parsed topology document. Errors are InputErrors naming `file` and
/// the JSON path, e.g. `topo.json: /links/3/b: unknown node "s9"`.
Topology TopologyFromJson(const nlohmann::json& document,
                          const std::string& file,
                          const LinkParams& defaults);

/// Reads, validates and builds a topology file; `path` is also the label in error messages.
Topology LoadTopologyFile(const std::string& path, const LinkParams& defaults);

} // namespace incsim

#endif
