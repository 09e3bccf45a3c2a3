#ifndef INCSIM_GOTTHARD_GOTTHARD_PROTOCOL_H
#define INCSIM_GOTTHARD_GOTTHARD_PROTOCOL_H

#include "protocols/gotthard/gotthard-client.h"
#include "protocols/gotthard/gotthard-store.h"
#include "protocols/txn/txn-workload.h"
#include "sim/scenario/protocol.h"

#include <ns3/ptr.h>

#include <memory>
#include <vector>

namespace incsim
{
class P4Pipeline;
}

namespace incsim::gotthard
{

/// Gotthard (USI TR 2016-05): one host is the store, the others clients; the named switches
/// run p4/gotthard.p4 in the chosen mode (optimistic abort, or a baseline), the rest forward.
class GotthardProtocol : public Protocol
{
  public:
    static Spec ParamsSpec();
    static Spec WorkloadSpec();

    void Install(World& world, const ParamView& params, const ParamView& workload) override;
    void CollectMetrics(nlohmann::json& metrics) const override;

  private:
    World* m_world = nullptr;
    ns3::Ptr<GotthardStore> m_store;
    std::vector<ns3::Ptr<GotthardClient>> m_clients;
    std::unique_ptr<txn::Workload> m_workload;
    std::vector<P4Pipeline*> m_pipelines;
    ClientStats m_stats;
    int64_t m_activePs = 0;
};

void RegisterGotthardProtocol();

} // namespace incsim::gotthard

#endif
