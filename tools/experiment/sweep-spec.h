#ifndef INCSIM_EXPERIMENT_SWEEP_SPEC_H
#define INCSIM_EXPERIMENT_SWEEP_SPEC_H

// A sweep file: a base scenario, the parameters to vary, repetitions and the metrics to
// collect.
//
// {
//   "name": "udp-load",
//   "scenario": "../quickstart.json",             relative to the sweep file
//   "set": {"duration": "200us"},                 fixed overrides, optional
//   "vary": [                                      factors, combined as a cartesian product
//     {"grid": {"workload.load": [0.2, 0.5], "links.rate": ["10Gbps", "40Gbps"]}},
//     {"zip":  {"workload.message_size": ["1KB", "4KB"], "duration": ["100us", "400us"]}},
//     {"list": [{"routing.ecmp": "per-flow"}, {"routing.ecmp": "per-packet"}]}
//   ],
//   "repetitions": 3,                              runs per point, seeds derived from "seed"
//   "seed": 1,
//   "metrics": ["udp.latency_p99_us", "network.drops.no_route"],   dotted paths in metrics.json
//   "timeout": "600s"                              per run (wall clock), optional
// }
//
// Paths are scenario paths as `incsim run --set` takes them ("links.rate" or "/links/rate").
// A grid multiplies out its keys, a zip pairs equal-length lists element by element, a list
// names its points explicitly. Errors name the sweep file and the JSON path.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace incsim::experiment
{

/// One point of the sweep: path -> value assignments, in the order the factors give them.
using Assignment = std::vector<std::pair<std::string, nlohmann::json>>;

struct SweepSpec
{
    std::string file;  // the sweep file, as given
    std::string name;
    std::string scenarioPath;  // resolved against the sweep file's directory
    Assignment fixed;  // "set"
    std::vector<std::vector<Assignment>> factors;  // each factor's points
    std::vector<std::string> parameters;  // every varied path, in first-seen order
    uint32_t repetitions = 1;
    uint64_t seed = 1;
    std::vector<std::string> metrics;
    std::optional<int64_t> timeoutNs;
};

/// One run to do: a point, a repetition and its seed, and the overrides that make it.
struct PlannedRun
{
    Assignment point;  // the varied parameters' values
    uint32_t repetition = 0;
    uint64_t seed = 0;
    /// "path=<json>" overrides for ParseScenario: the fixed set, the point, then the seed.
    std::vector<std::string> overrides;
};

/// Reads and checks a sweep file; throws InputError naming the file and the JSON path.
SweepSpec LoadSweep(const std::string& path);
SweepSpec ParseSweep(const nlohmann::json& document, const std::string& file);

/// Every run of the sweep: the cartesian product of the factors' points, each repeated.
/// Point order: the first factor varies slowest; repetitions innermost.
std::vector<PlannedRun> ExpandSweep(const SweepSpec& sweep);

/// The seed of repetition `r`: derived from the sweep seed so that adding repetitions keeps
/// the seeds of the existing ones.
uint64_t RepetitionSeed(uint64_t sweepSeed, uint32_t repetition);

} // namespace incsim::experiment

#endif
