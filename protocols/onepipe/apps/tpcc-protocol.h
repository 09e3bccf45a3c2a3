#ifndef INCSIM_ONEPIPE_APPS_TPCC_PROTOCOL_H
#define INCSIM_ONEPIPE_APPS_TPCC_PROTOCOL_H

#include "protocols/onepipe/apps/tpcc-app.h"
#include "protocols/onepipe/apps/app-protocol.h"

#include <memory>
#include <vector>

namespace incsim::onepipe::apps
{

/// "onepipe_tpcc": TPC-C's New-Order and Payment as independent transactions on 1Pipe's
/// processes (paper Sec. 7.3.2, Fig. 15), 4 warehouse shards with 3 replicas each, against
/// two-phase locking and OCC with primary-backup replication (docs/onepipe-apps.md).
class TpccProtocol : public AppProtocol<TpccApp>
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
    void CloseLogs();

    std::unique_ptr<TpccShared> m_shared;
    txn::TpccWorkload::Config m_workloadConfig;
    std::string m_workloadPath;
};

void RegisterTpccProtocol();

/// `incsim check` of onepipe_tpcc: the shared history checker on txn_client and txn_log.
CheckReport CheckTpccRun(const std::string& runDir);

} // namespace incsim::onepipe::apps

#endif
