#ifndef INCSIM_ONEPIPE_FAILURE_CONTROLLER_H
#define INCSIM_ONEPIPE_FAILURE_CONTROLLER_H

#include "protocols/onepipe/failure-notice.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace incsim
{
class CsvWriter;
class Topology;
} // namespace incsim

namespace incsim::onepipe
{

class CommitInputs;
class OnePipeEndpoint;

/// The controller's settings, filled from /protocol/params (whose spec holds the defaults).
struct ControllerConfig
{
    /// Topology node of the controller's host: the root of Determine's routing graph.
    uint32_t rootNode = 0;
    /// One way over the management network, for every control message.
    int64_t delayPs = 0;
    /// The controller's CPU time per message it receives or sends, served one at a time.
    int64_t costPs = 0;
    /// From the first report of a round to Determine.
    int64_t determineWaitPs = 0;
    uint32_t processesPerHost = 0;
    /// From a broadcast to declaring failed the correct processes that have not completed it
    /// (0: never).
    int64_t completionTimeoutPs = 0;
};

/// Reliable 1Pipe's failure-handling controller (paper 5.2; docs/onepipe.md, "Failure
/// handling"): a single process at a host, reached over the management network. It collects
/// the switches' reports (Detect), finds the processes cut off from its host in the routing
/// graph without the reported links and their failure timestamps from the cut (Determine),
/// sends them to every correct process (Broadcast), waits for every correct process's
/// completion (after its Discard, Recall and Callback), then has the reporting switches drop
/// the reported ports from their commit inputs (Resume).
///
/// Receiver recovery and rejoin (paper 5.2; docs/onepipe.md, "Receiver recovery and rejoin"):
/// it tells a failed process it was declared failed (the process stops its old identity's
/// sending), records the recalls that could not reach a failed receiver, and when a reported
/// port is live again (a repair) has its switch re-admit it as a commit input; once no
/// re-admission is pending and no failure is being handled, each failed process connected to
/// the controller again recovers (the failures since its own, the recalls addressed to it)
/// and rejoins as a new identity, which every correct process is told of.
class FailureController
{
  public:
    /// Asks the switch at `node` to re-admit `port` as a commit input (FailureDetector).
    using Readmit = std::function<void(uint32_t node, uint32_t port)>;

    /// `processes`: every process by id; `trace`: onepipe_controller (may be null).
    FailureController(const Topology& topology, const ControllerConfig& config,
                      std::vector<OnePipeEndpoint*> processes, CsvWriter* trace);

    /// The switch at `node` and its commit inputs (Resume acts on them).
    void AddSwitch(uint32_t node, CommitInputs& inputs);
    /// A switch's report (M6), sent now.
    void SendReport(uint32_t node, uint32_t port, uint64_t commit);
    /// A process's completion (M10) of notice `epoch`, sent now.
    void SendCompletion(uint32_t process, uint64_t epoch);
    void SetReadmit(Readmit readmit) { m_readmit = std::move(readmit); }
    /// A switch's repair report: `port`, reported before, is live again; sent now.
    void SendRepair(uint32_t node, uint32_t port);
    /// A switch started (`done` false: on its own, after it recovered) or finished
    /// re-admitting `port` as a commit input; sent now.
    void SendReadmission(uint32_t node, uint32_t port, bool done);
    /// A process's recalls whose receivers had failed (the controller keeps them), one
    /// message per failure notice; sent now.
    void SendUndeliveredRecalls(uint32_t process, std::vector<UndeliveredRecall> recalls);
    /// A sender's forward request (M12), sent now: the controller carries the segments to
    /// the receiver and its ACK back, or announces failed the one it cannot reach.
    void SendForward(const ForwardRequest& request);

    uint64_t FailedProcesses() const { return m_failedCount; }
    uint64_t Epochs() const { return m_epoch; }
    uint64_t Resumes() const { return m_resumes; }
    /// Failed processes that recovered and rejoined as new identities.
    uint64_t Rejoins() const { return m_rejoins; }
    /// Forward requests whose receiver's ACK went back to the sender.
    uint64_t Forwards() const { return m_forwards; }
    /// Messages the controller received or sent (reports, notices, completions, removals).
    uint64_t Messages() const { return m_messages; }
    /// Its CPU time over them, in ps.
    int64_t BusyPs() const { return static_cast<int64_t>(m_messages) * m_config.costPs; }

  private:
    struct Report
    {
        uint32_t node;
        uint32_t port;
        uint32_t link;
        uint32_t peer; ///< the node on the other side of the silent port
        uint64_t commit;
        bool applied = false; ///< taken out of the routing graph by a Determine
        bool resumed = false;
        bool repaired = false; ///< live again and back in the routing graph
    };

    /// When the controller's CPU is done with one more message, in ps from now.
    int64_t Serve();
    void ReceiveReport(uint32_t node, uint32_t port, uint64_t commit);
    void ReceiveCompletion(uint32_t process, uint64_t epoch);
    void Determine();
    /// Declares `failures` (Broadcast), and waits for every correct process's completion.
    void Broadcast(const std::vector<ProcessFailure>& failures);
    /// Epoch `epoch`'s completions are overdue: the processes still silent are failed.
    void CompletionTimeout(uint64_t epoch);
    /// A silent process's NIC froze its commit barrier at `ts`, its failure timestamp.
    void ReceiveSilenced(uint32_t process, uint64_t ts);
    void Resume();
    void ReceiveRepair(uint32_t node, uint32_t port);
    void ReceiveReadmission(uint32_t node, uint32_t port, bool done);
    /// Recovers every failed process connected to the controller again, when nothing else
    /// is in progress.
    void TryRecover();
    void ReceiveJoined(uint32_t process, uint64_t ts, bool keptBuffer);
    void ReceiveForward(const ForwardRequest& request);
    /// Whether the management network reaches `process` (its host is up).
    bool Reachable(uint32_t process) const;
    /// `process` did not answer over the management network: the controller reads the last
    /// commit barrier of its host's ports at their switches and takes them as those switches'
    /// reports (Detect), so that Determine declares its host's processes failed.
    void Unreachable(uint32_t process);
    uint32_t HostNodeOf(uint32_t process) const;
    bool Handling() const
    {
        return m_determinePending || m_awaitingCount > 0 || m_silencing > 0;
    }
    /// The component of every node in the graph without the reported links (0: the root's).
    std::vector<uint32_t> Components() const;
    void Trace(const char* event, uint32_t node, int64_t port, int64_t process, uint64_t ts,
               int64_t peer = -1);

    const Topology& m_topology;
    ControllerConfig m_config;
    std::vector<OnePipeEndpoint*> m_processes;
    std::vector<CommitInputs*> m_inputs; ///< by node id
    CsvWriter* m_trace;
    int64_t m_busyUntilPs = 0;
    std::vector<Report> m_reports;
    std::vector<bool> m_linkDown;
    std::vector<bool> m_failed;         ///< by process
    std::vector<bool> m_awaiting;       ///< by process: its completion of m_epoch is due
    uint64_t m_awaitingCount = 0;
    uint64_t m_epoch = 0;
    bool m_determinePending = false;
    uint64_t m_failedCount = 0;
    uint64_t m_resumes = 0;
    uint64_t m_messages = 0;
    Readmit m_readmit;
    /// Every failure announced, in order; per process, where its own Determine's begin in it,
    /// and its failure timestamp.
    std::vector<ProcessFailure> m_failureLog;
    std::vector<size_t> m_failedAtLog;
    std::vector<uint64_t> m_failureTs;
    std::vector<UndeliveredRecall> m_recalls;
    std::vector<bool> m_recovering;
    /// Repairs of reports not yet resumed: handled after Resume.
    std::vector<std::pair<uint32_t, uint32_t>> m_deferredRepairs;
    int64_t m_readmissionsPending = 0;
    uint64_t m_rejoins = 0;
    uint64_t m_forwards = 0;
    /// By host node: its ports' registers are being read (Unreachable), once per failure.
    std::vector<bool> m_unreachableHost;
    /// By process: failed for not completing a notice in time (never recovered: it would not
    /// answer the recovery either).
    std::vector<bool> m_silenced;
    /// Silent processes whose NICs have not yet answered, and the answers so far.
    uint64_t m_silencing = 0;
    std::vector<ProcessFailure> m_silencedFailures;
    /// Silent processes whose commit barriers their NICs hold until Resume.
    std::vector<uint32_t> m_held;
};

} // namespace incsim::onepipe

#endif
