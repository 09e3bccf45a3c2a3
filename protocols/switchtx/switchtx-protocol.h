#ifndef INCSIM_SWITCHTX_SWITCHTX_PROTOCOL_H
#define INCSIM_SWITCHTX_SWITCHTX_PROTOCOL_H

#include "protocols/switchtx/baselines/eris-baseline.h"
#include "protocols/switchtx/gas-route.h"
#include "protocols/switchtx/switchtx-cluster.h"
#include "protocols/txn/txn-workload.h"
#include "sim/scenario/protocol.h"

#include <memory>
#include <vector>

namespace incsim
{
class P4Pipeline;
}

namespace incsim::switchtx
{

/// SwitchTx (PVLDB 15(11), 2022) on the hosts: a server per host with one shard, replicated
/// primary-backup; worker threads that are clients and participants; OCC phases coordinated
/// by the client (FaSST) or by a gatherer (in-server GaS); reliable data plane, unreliable
/// control messages, timeouts and resolution; the transaction history (docs/switchtx.md).
class SwitchTxProtocol : public Protocol
{
  public:
    static Spec ParamsSpec();
    static Spec WorkloadSpec();

    void Install(World& world, const ParamView& params, const ParamView& workload) override;
    void CollectMetrics(nlohmann::json& metrics) const override;

  private:
    std::unique_ptr<txn::Workload> m_workload;
    std::unique_ptr<GasRoute> m_route;
    std::unique_ptr<Cluster> m_cluster;
    std::unique_ptr<eris::ErisBaseline> m_eris;
    int64_t m_activePs = 0;
    std::vector<P4Pipeline*> m_pipelines;  ///< in-switch: every switch's switchtx.p4
};

void RegisterSwitchTxProtocol();

} // namespace incsim::switchtx

#endif
