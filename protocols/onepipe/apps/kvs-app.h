#ifndef INCSIM_ONEPIPE_APPS_KVS_APP_H
#define INCSIM_ONEPIPE_APPS_KVS_APP_H

#include "protocols/onepipe/apps/decision-log.h"
#include "protocols/onepipe/apps/app-window.h"
#include "protocols/onepipe/apps/message-table.h"
#include "protocols/onepipe/apps/txn-initiator.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/txn/multi-kv-workload.h"
#include "protocols/txn/txn-history.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::onepipe::apps
{

/// /protocol/params/system of onepipe_kvs: 1Pipe's transactions, the FaRM-like OCC baseline
/// or the non-transactional store (docs/onepipe-apps.md).
enum class KvsSystem
{
    OnePipe,
    Farm,
    NonTx
};

/// One message between an initiator and a server. The endpoint carries its index in the
/// run's message table as the message's tag (Outgoing::tag).
struct KvsMessage
{
    enum class Op : uint8_t
    {
        Execute,  ///< 1Pipe, NonTX: execute these operations, answer with what was read
        Answer,
        Read,     ///< FaRM: read values, versions and locks
        ReadAnswer,
        Lock,     ///< FaRM: lock the write set
        LockAnswer,
        Validate, ///< FaRM: versions unchanged and unlocked; the decision's place
        ValidateAnswer,
        Commit,   ///< FaRM: install the writes and unlock
        CommitAnswer,
        Unlock    ///< FaRM: release the locks of an aborted attempt
    };
    Op op = Op::Execute;
    bool ok = true;
    bool reliable = false; ///< 1Pipe: sent on reliable 1Pipe (the answer goes back so too)
    bool decideAtRead = false; ///< FaRM: a one-key read-only attempt, decided where it reads
    bool logged = false;       ///< answers: the server logged a decision whose outcome is open
    uint64_t decision = 0;     ///< ... its index in the server's DecisionLog
    uint32_t initiator = 0;
    uint32_t slot = 0;     ///< the initiator's window slot
    uint64_t attempt = 0;  ///< the attempt id (txn_client's)
    std::vector<txn::HistoryOp> ops;
};

using KvsMessages = MessageTable<KvsMessage>;

struct KvsConfig
{
    KvsSystem system = KvsSystem::OnePipe;
    /// 1Pipe: read-only transactions over best-effort 1Pipe (the paper's), or reliable.
    bool readOnlyBestEffort = true;
    uint32_t window = 1;      ///< transactions each initiator keeps in flight
    uint32_t valueBytes = 0;  ///< bytes of a value in a message
    int64_t retryTimeoutPs = 0;
    int64_t backoffPs = 0;    ///< FaRM: base of the randomised backoff after an abort
    AppWindow measurement; ///< when initiators run and results count
};

/// What every process of a run shares: the workload, the message table, the traces and the
/// results.
struct KvsShared
{
    KvsConfig config;
    std::unique_ptr<txn::MultiKvWorkload> workload;
    KvsMessages messages;
    CsvWriter* clientLog = nullptr;
    CsvWriter* serverLog = nullptr;
    std::vector<class KvsApp*> apps;

    struct Results
    {
        TxnResults txns{3}; ///< by kind (MultiKvWorkload::Kind)
        uint64_t opsCommitted = 0;
        uint64_t retryTimeouts = 0;
    } results;
};

/// One process of the transactional key-value store (paper 7.3.1): an initiator with
/// `window` transactions in flight and a server of the keys whose hash (key mod processes)
/// is its id, over the 1Pipe endpoint's Table 1 API. 1Pipe: one scattering per transaction
/// (one message per server), executed by each server on delivery, in timestamp order, with no
/// locks; read-only transactions on best-effort 1Pipe, the others on reliable 1Pipe. FaRM:
/// read, lock, validate, commit (OCC with two-phase commit) over the unordered transport.
/// NonTX: 1Pipe's messages over the unordered transport, executed on arrival.
class KvsApp
{
  public:
    KvsApp(OnePipeEndpoint& endpoint, uint32_t id, KvsShared& shared, Rng rng);
    KvsApp(const KvsApp&) = delete;
    KvsApp& operator=(const KvsApp&) = delete;
    ~KvsApp();

    void Start();
    DecisionLog& Log() { return m_log; }

  private:
    enum class Phase : uint8_t
    {
        Idle,
        Execute,  ///< 1Pipe, NonTX: waiting for the answers
        Read,
        Lock,
        Validate,
        Commit
    };
    struct Attempt
    {
        Phase phase = Phase::Idle;
        txn::Transaction txn;
        uint64_t logical = 0;
        uint64_t attempt = 0;
        uint32_t retries = 0;
        int64_t startPs = 0;  ///< the logical transaction's first attempt
        std::vector<txn::Access> accesses;
        std::vector<txn::HistoryOp> result; ///< per access: the value (and version) read
        std::vector<uint32_t> servers;      ///< distinct, in order of first access
        uint32_t pending = 0;
        bool failed = false;
        std::vector<uint32_t> locked;       ///< FaRM: servers whose locks this attempt holds
        /// Servers holding its decision with the outcome open, and the decisions' indexes.
        std::vector<std::pair<uint32_t, uint64_t>> logged;
        std::vector<uint32_t> answered;     ///< 1Pipe best-effort: servers that answered
        ns3::EventId timer;
    };

    void Receive(const Delivered& message);
    void NextTransaction(uint32_t slot);
    void Begin(uint32_t slot);
    /// Sends each server its share of the attempt's accesses (`reads`/`writes` select which).
    void Scatter(uint32_t slot, KvsMessage::Op op, bool reads, bool writes, bool reliable);
    void Send(std::vector<Outgoing>& scattering, bool reliable);
    uint32_t Bytes(const KvsMessage& message) const;
    void Serve(uint32_t src, KvsMessage& message, uint64_t tag);
    void Answered(KvsMessage& message);
    void PhaseDone(uint32_t slot);
    void Commit(uint32_t slot);
    void Abort(uint32_t slot);
    /// Tells every server that logged this attempt's decision its outcome (bookkeeping of the
    /// commit log; FaRM's commit message reaches only the written servers).
    void ResolveDecisions(Attempt& a, bool committed);
    void RetryTimeout(uint32_t slot);
    uint32_t ServerOf(uint64_t key) const;

    struct Entry
    {
        uint64_t value = 0;
        uint64_t version = 0;
        uint32_t lockOwner = 0; ///< initiator + 1, 0 when free
        uint64_t lockAttempt = 0;
    };

    OnePipeEndpoint& m_endpoint;
    uint32_t m_id;
    KvsShared& m_shared;
    Rng m_rng;
    uint64_t m_nextLogical = 0;
    uint64_t m_nextAttempt = 0;
    std::vector<Attempt> m_window;
    std::unordered_map<uint64_t, Entry> m_store;
    DecisionLog m_log;
    std::vector<Outgoing> m_scattering; ///< scratch
    std::vector<txn::HistoryOp> m_ops;  ///< scratch
    ns3::EventId m_startEvent;
};

} // namespace incsim::onepipe::apps

#endif
