#ifndef INCSIM_SWITCHTX_ERIS_BASELINE_H
#define INCSIM_SWITCHTX_ERIS_BASELINE_H

#include "protocols/switchtx/baselines/eris-cluster.h"
#include "sim/schema/schema.h"
#include "sim/schema/time-window.h"

#include <nlohmann/json.hpp>

#include <memory>

namespace incsim::switchtx::eris
{

/// SwitchTx's `coordination: eris | eris-server` (docs/switchtx.md, "Baselines: Eris"): the
/// params only Eris reads, their checks, the switches' program and the metrics.
class ErisBaseline
{
  public:
    /// Adds gap_timeout, sequencer_server, cpu_eris_execute and cpu_sequencer to SwitchTx's
    /// params.
    static void AddParams(Spec& spec);

    /// Checks the params against Eris's limits (at most 40 shards, independent transactions:
    /// YCSB-T only), sets every switch's program and installs the hosts.
    void Install(World& world, const ParamView& params, const ParamView& workloadParams,
                 bool softwareSequencer, const TimeWindow& window, const txn::Workload* workload);
    void CollectMetrics(nlohmann::json& metrics) const;

  private:
    std::unique_ptr<ErisCluster> m_cluster;
    int64_t m_activePs = 0;
};

} // namespace incsim::switchtx::eris

#endif
