#ifndef INCSIM_ONEPIPE_APPS_REPLICATION_PROTOCOL_H
#define INCSIM_ONEPIPE_APPS_REPLICATION_PROTOCOL_H

#include "protocols/onepipe/apps/replication-app.h"
#include "protocols/onepipe/apps/app-protocol.h"

#include <memory>
#include <vector>

namespace incsim::onepipe::apps
{

/// "onepipe_replication": 1-RTT replication on best-effort 1Pipe (paper 2.2.2) against Ceph's
/// primary-backup chain, 4 KB writes to 3 replicas with a disk write each (paper 7.3.4), on
/// 1Pipe's processes (every parameter of "onepipe"). The run checks itself
/// (docs/onepipe-apps.md, "1-RTT replication").
class ReplicationProtocol : public AppProtocol<ReplicationApp>
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

  private:
    std::unique_ptr<ReplicationShared> m_shared;
};

/// Adds "onepipe_replication" to Protocols(); idempotent.
void RegisterReplicationProtocol();

} // namespace incsim::onepipe::apps

#endif
