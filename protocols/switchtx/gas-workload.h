#ifndef INCSIM_SWITCHTX_GAS_WORKLOAD_H
#define INCSIM_SWITCHTX_GAS_WORKLOAD_H

#include "protocols/txn/txn-workload.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace incsim::switchtx
{

/// Fig. 11's GaS microbenchmark (§5.3.1) as a workload (`workload.kind: gas`): every
/// operation is a barrier over `serversPerOp` servers, the client's own and the next
/// serversPerOp - 1 (mod the servers). It is a read-only transaction of one key per server,
/// the client thread's own key there, so the hosts run it on the read-only path unchanged:
/// the plan to every participant over RC, then one GaS (each participant's version_copy_ok
/// gathered, the last one scattered back to all of them), then each one's data to the client.
/// The GaS in the middle is the barrier whose latency Fig. 11 plots (docs/switchtx.md,
/// "Fig. 11"). No key is written, so every operation commits at its first attempt.
class GasWorkload : public txn::Workload
{
  public:
    /// Throws std::logic_error unless 2 <= serversPerOp <= servers.
    GasWorkload(uint32_t servers, uint32_t threads, uint32_t serversPerOp);
    const std::vector<std::string>& KindNames() const override;
    void Next(uint32_t client, Rng& rng, txn::Transaction& txn) const override;
    void Execute(const txn::Transaction& txn, const txn::ValueView& values,
                 std::vector<txn::Access>& accesses) const override;
    uint32_t Partitions() const override { return m_servers; }
    uint32_t PartitionOf(uint64_t key) const override
    {
        return static_cast<uint32_t>(key >> kServerShift);
    }
    uint32_t ServersPerOp() const { return m_serversPerOp; }

    static constexpr uint32_t kServerShift = 32;

  private:
    uint32_t m_servers;
    uint32_t m_threads;
    uint32_t m_serversPerOp;
};

/// Fig. 11's GaS microbenchmark: each operation's GaS (a read-only attempt's version copy),
/// from its first participant's gather message to the last participant taking the scatter.
/// A measurement of the simulation, not protocol state.
class GasOps
{
  public:
    /// A participant of attempt `attempt` of client `client` sends its gather message.
    void Sent(uint32_t client, uint64_t attempt, int64_t nowPs);
    /// A participant takes the scatter of an operation over `participants` servers.
    void Taken(uint32_t client, uint64_t attempt, size_t participants, int64_t nowPs);

    uint64_t Operations() const { return m_ops.size(); }
    uint64_t Completed() const { return m_completed; }
    uint64_t Receipts() const { return m_receipts; }
    /// Scatters taken beyond one per participant, or before any gather message was sent.
    uint64_t Surplus() const { return m_surplus; }
    /// Scatters taken before every participant had sent its gather message: a broken barrier.
    uint64_t Early() const { return m_early; }
    const std::vector<int64_t>& LatenciesPs() const { return m_latenciesPs; }

  private:
    struct Op
    {
        int64_t firstSentPs = -1;
        uint32_t sent = 0;
        uint32_t taken = 0;
    };
    std::unordered_map<uint64_t, Op> m_ops;  ///< by client << 32 | attempt
    std::vector<int64_t> m_latenciesPs;
    uint64_t m_completed = 0;
    uint64_t m_receipts = 0;
    uint64_t m_surplus = 0;
    uint64_t m_early = 0;
};

} // namespace incsim::switchtx

#endif
