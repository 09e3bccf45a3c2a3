#ifndef INCSIM_SWITCHTX_SWITCHTX_TXN_H
#define INCSIM_SWITCHTX_SWITCHTX_TXN_H

#include "protocols/switchtx/switchtx-wire.h"
#include "protocols/txn/txn-workload.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace incsim::switchtx
{

/// The phases after the execute phase (§2.1, §3.2.3).
enum class Phase : uint8_t
{
    Lock,
    Validate,
    CommitBackup,
    CommitPrimary,
    VersionCopy,
    ValidateRead,
    Done
};
constexpr size_t kPhases = static_cast<size_t>(Phase::Done) + 1;

struct InSwitchPlan;

/// One operation of an attempt: a read (the value and version the execute phase saw; whether
/// the attempt also writes the key) or a write (the value to install).
struct PlanOp
{
    txn::AccessType type = txn::AccessType::Read;
    uint64_t key = 0;
    uint64_t value = 0;
    uint64_t version = 0;
    uint32_t shard = 0;
    /// The shard's primary when the plan was built: the host that locks, validates and
    /// installs the operation (a backup promoted later takes over, docs/switchtx.md
    /// "Failures").
    uint32_t primary = 0;
    bool alsoWritten = false;  ///< a read of a key the attempt writes (read-modify-write)
};

/// One attempt as its client sends it at the start of the lock phase: its operations and who
/// takes part (hosts, sorted). Immutable once sent; the participants keep it by reference,
/// as the lock-phase RC messages would carry it (switchtx-spec [D] 7).
struct TxnPlan
{
    uint32_t txnId = 0;
    uint32_t clientHost = 0;
    uint32_t thread = 0;
    uint32_t client = 0;   ///< the client thread's global id, the history's client
    uint64_t attempt = 0;  ///< the history's attempt id
    uint32_t kind = 0;
    bool retry = false;
    bool readOnly = false;      ///< no writes: version copy, then validate & read (§3.2.3)
    bool serverDriven = false;  ///< the client drives the phases by RPC (FaSST, single shard)
    std::vector<PlanOp> ops;
    std::vector<uint32_t> writePrimaries;  ///< W_P
    std::vector<uint32_t> writeBackups;    ///< W_B
    std::vector<uint32_t> readPrimaries;   ///< R_P: primaries of keys read and not written
    std::vector<uint32_t> participants;    ///< all of the above
    /// The slices a reply completing each phase carries, and a fail's (GasRoute::Prepare,
    /// once per attempt, so replies fill them without work).
    std::array<GasSlices, kPhases> replySlices{};
    GasSlices failSlices{};
    /// In-switch GaS: the coordination tree's slices for every participant and phase.
    std::shared_ptr<const InSwitchPlan> gas;
};

using PlanPtr = std::shared_ptr<const TxnPlan>;

/// The reply a participant sends when it has done `phase` (Table 1's gathered types).
MsgType ReplyOf(Phase phase);
/// The phase a gathered type completes (its scatter is the command for the next one).
Phase CompletedBy(MsgType type);
/// The phase after `done`, skipping phases without members: Table 1, with lock_ok going to
/// W_B when nothing is only read, and validate_ok to W_P when there are no backups.
Phase NextPhase(const TxnPlan& plan, Phase done);
/// The hosts that take part in `phase`.
const std::vector<uint32_t>& Members(const TxnPlan& plan, Phase phase);
bool Contains(const std::vector<uint32_t>& sorted, uint32_t host);

/// Where shards live: shard i's replica r on host i + r (mod the hosts), r < replication.
/// Replica 0 is the primary until its server fails; then the first live backup takes over
/// (§3.5's participant recovery), so the primary is a table. `alive` is what the membership
/// service has told the servers (a crash is known only once detected).
struct Placement
{
    static constexpr uint32_t kNoReplica = ~0u;

    uint32_t hosts = 0;
    uint32_t replication = 0;
    std::vector<uint32_t> primaryReplica;  ///< by shard
    std::vector<bool> alive;               ///< by host

    Placement() = default;
    Placement(uint32_t hostCount, uint32_t replicas)
        : hosts(hostCount),
          replication(replicas),
          primaryReplica(hostCount, 0),
          alive(hostCount, true)
    {
    }
    uint32_t HostOf(uint32_t shard, uint32_t replica) const { return (shard + replica) % hosts; }
    uint32_t Primary(uint32_t shard) const { return HostOf(shard, primaryReplica[shard]); }
    /// The replica of `shard` that `host` holds, or kNoReplica.
    uint32_t ReplicaOn(uint32_t shard, uint32_t host) const
    {
        const uint32_t r = (host + hosts - shard) % hosts;
        return r < replication ? r : kNoReplica;
    }
    /// Replica `r` of `shard` is a backup the membership counts (not the primary, not dead).
    bool IsLiveBackup(uint32_t shard, uint32_t r) const
    {
        return r != primaryReplica[shard] && alive[HostOf(shard, r)];
    }
};

/// Client slots: a txn_id's low bits name ⟨host, thread, MPL slot⟩.
struct SlotLayout
{
    uint32_t threads = 0;
    uint32_t mpl = 0;
    uint32_t Slot(uint32_t host, uint32_t thread, uint32_t index) const
    {
        return (host * threads + thread) * mpl + index;
    }
    uint32_t HostOf(uint32_t slot) const { return slot / mpl / threads; }
    uint32_t ThreadOf(uint32_t slot) const { return slot / mpl % threads; }
    uint32_t IndexOf(uint32_t slot) const { return slot % mpl; }
};

} // namespace incsim::switchtx

#endif
