#ifndef INCSIM_ONEPIPE_APPS_KVS_PROTOCOL_H
#define INCSIM_ONEPIPE_APPS_KVS_PROTOCOL_H

#include "protocols/onepipe/apps/kvs-app.h"
#include "protocols/onepipe/apps/app-protocol.h"

#include <memory>
#include <vector>

namespace incsim::onepipe::apps
{

/// "onepipe_kvs": the transactional key-value store of the paper's Sec. 7.3.1 (Fig. 14) on
/// 1Pipe's processes (OnePipeProtocol: its switches, hosts and endpoints, every parameter of
/// "onepipe"), with a KvsApp per process instead of the microbenchmark traffic; "system"
/// picks 1Pipe, the FaRM-like baseline or NonTX (docs/onepipe-apps.md).
class KvsProtocol : public AppProtocol<KvsApp>
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

    std::unique_ptr<KvsShared> m_shared;
    txn::MultiKvWorkload::Config m_workloadConfig;
};

/// Adds "onepipe_kvs" to Protocols(); idempotent.
void RegisterKvsProtocol();

/// `incsim check` of onepipe_kvs: the shared history checker (docs/txn.md) on txn_client and
/// txn_log.
CheckReport CheckKvsRun(const std::string& runDir);

} // namespace incsim::onepipe::apps

#endif
