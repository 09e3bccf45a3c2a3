#ifndef INCSIM_ONEPIPE_APPS_HASHTABLE_PROTOCOL_H
#define INCSIM_ONEPIPE_APPS_HASHTABLE_PROTOCOL_H

#include "protocols/onepipe/apps/hashtable-app.h"
#include "protocols/onepipe/apps/app-protocol.h"

#include <memory>
#include <vector>

namespace incsim::onepipe::apps
{

/// "onepipe_hashtable": the replicated remote hash table of the paper's Sec. 7.3.3 (Fig. 16)
/// on 1Pipe's processes (OnePipeProtocol: every parameter of "onepipe"): clients access a
/// sharded chained hash table with one-sided reads, writes and CAS; "system" picks 1Pipe (an
/// insert is one ordered scattering to every replica) or the baseline (write, fence, CAS at
/// the leader, whose CPU replicates). The run checks itself (docs/onepipe-apps.md).
class HashTableProtocol : public AppProtocol<HashTableApp>
{
  public:
    static Spec ParamsSpec();
    static Spec WorkloadSpec();

    void Install(World& world, const ParamView& params, const ParamView& workload) override;
    void CollectMetrics(nlohmann::json& metrics) const override;

  protected:
    void ReadWorkload(World& world, const ParamView& workload) override;
    void AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                           uint32_t processes) override;
    /// The preloaded keys first.
    void StartApplications() override;

  private:
    /// The table before the run, on every replica.
    void Preload();
    /// Shards whose replicas hold different tables at the end, and completed inserts that a
    /// replica's table does not reach.
    void CheckReplicas(uint64_t& mismatchedShards, uint64_t& lostInserts) const;

    std::unique_ptr<HashTableShared> m_shared;
};

/// Adds "onepipe_hashtable" to Protocols(); idempotent.
void RegisterHashTableProtocol();

} // namespace incsim::onepipe::apps

#endif
