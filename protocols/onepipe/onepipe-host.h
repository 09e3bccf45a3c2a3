#ifndef INCSIM_ONEPIPE_ONEPIPE_HOST_H
#define INCSIM_ONEPIPE_ONEPIPE_HOST_H

#include "protocols/onepipe/run-records.h"
#include "protocols/onepipe/timestamp-clock.h"
#include "sim/core/rng.h"
#include "sim/host/reliable-channel.h"

#include <ns3/event-id.h>
#include <ns3/object.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace incsim
{
class CsvWriter;
class HostNode;
struct Frame;
} // namespace incsim

namespace incsim::onepipe
{

class OnePipeEndpoint;

/// What every 1Pipe host and process of a run shares. OnePipeProtocol::Install fills every
/// field from the scenario, whose spec holds the defaults.
struct HostConfig
{
    int64_t beaconIntervalNs = 0;
    /// false: the unordered baseline (no barriers, no beacons; delivery on arrival).
    bool ordered = false;
    /// Barriers come in data packets as well as beacons (the chip stamps data; off the chip,
    /// data keeps its sender's barrier and only beacons count).
    bool barrierInData = false;
    bool logicalClock = false;
    double clockGainPerNs = 0;
    uint8_t priority = 0;
    uint32_t processesPerHost = 0;
    uint32_t maxPayload = 0; ///< UDP payload per packet
    int64_t ackTimeoutPs = 0;
    int64_t ackDelayPs = 0;
    /// The reliable service: prepare over reliable channels, deliver on the commit barrier.
    bool reliable = false;
    /// Reliable, the checker's negative control: deliver on the best-effort barrier instead.
    bool deliverOnBarrier = false;
    /// Reliable: the prepare channels' retransmission timeout.
    RetransmitTimeout retransmit;
    /// Reliable: retransmission rounds without an ACK before a sender asks the controller to
    /// forward (0: never).
    uint32_t forwardAfter = 0;
    /// Reliable: at most one commit message per this long.
    int64_t commitIntervalPs = 0;
    /// Probability that lib1pipe drops a 1Pipe packet it receives (paper 7.2, Fig. 9b).
    double receiveLoss = 0;
};

/// The 1Pipe library's per-host part (lib1pipe's polling thread): the host's timestamp clock,
/// its barrier (from the packets and beacons its NIC receives), and a beacon on its uplink at
/// every synchronized time (multiples of the interval on the timestamp clock, physical or
/// logical). A host beacons even when it has just sent data: packets sent before the tick
/// carry older barriers, so without the tick's beacon the network's barrier would wait a whole
/// interval for this host. (Switch ports skip beacons whose barrier has not advanced; a host's
/// always has.) The host's processes (OnePipeEndpoint) share it: when the barrier advances,
/// the clock is raised to it and each process delivers what it holds below it.
///
/// Reliable service: the host's commit barrier is the lowest of its processes' oldest un-ACKed
/// timestamps and its clock; its beacons carry it, and when an ACK advances it the host sends
/// a commit message (a beacon) at once, or after `commitIntervalPs` since the last one.
/// Processes deliver on the commit barrier received from the switch.
class OnePipeHost : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    OnePipeHost();
    ~OnePipeHost() override;

    /// `lossRng` draws the receive_loss drops.
    void Configure(HostNode& host, const HostConfig& config, Stats* stats, Rng lossRng);
    void AddProcess(OnePipeEndpoint* process) { m_processes.push_back(process); }
    void Start();

    /// A fresh timestamp (never below one handed out before).
    uint64_t Timestamp() { return m_clock.Now(); }
    TimestampClock& Clock() { return m_clock; }
    /// The highest barrier received: every later packet has a timestamp at or above it.
    uint64_t Barrier() const { return m_barrier; }
    /// A barrier received in a packet; processes deliver if it advanced.
    void ObserveBarrier(uint64_t barrier);
    /// Reliable service: a commit barrier received; processes deliver if it advanced.
    void ObserveCommit(uint64_t commit);
    /// Reliable service: every message of this host below it is held by its receivers.
    uint64_t CommitBarrier();
    /// Reliable service: a process's oldest un-ACKed scattering was ACKed.
    void CommitMayAdvance();

    const HostConfig& Config() const { return m_config; }
    uint64_t BeaconsSent() const { return m_beaconsSent; }
    /// Whether lib1pipe drops the packet it just received (receive_loss): the paper's
    /// "random message drop in lib1pipe receiver", for data, ACKs, prepares and beacons alike.
    bool LostOnReceive();
    HostNode& Host() const { return *m_host; }
    /// The barrier the host's packets carry with timestamp `ts`: `ts`, or the NIC's view of
    /// its processes while one's last beacon to it was lost (m_nicViews).
    uint64_t LinkBarrier(uint64_t ts) const { return std::min(ts, m_nicBarrier); }

  private:
    void DoDispose() override;
    void ScheduleBeacon();
    void WaitForBeaconTime();
    void SendBeacon();
    /// With receive loss: each process's beacon of this round reaches the NIC's
    /// representative unless dropped (see m_nicViews).
    void ProcessBeaconsToNic(uint64_t round);
    void ReceiveBeacon(const Frame& frame);
    /// A join beacon: the switch has this host's port out until its barrier passes `ts`.
    void Join(uint64_t ts);
    /// Sends a beacon now carrying the current barriers; false if the NIC refused it.
    bool SendBeaconNow();
    void SendCommit();
    void DeliverAll(uint64_t barrier);

    HostNode* m_host = nullptr;
    HostConfig m_config;
    Stats* m_stats = nullptr;
    Rng m_lossRng{uint64_t{0}};
    TimestampClock m_clock;
    uint64_t m_barrier = 0;
    uint64_t m_commit = 0;        ///< the highest commit barrier received
    uint64_t m_commitSent = 0;    ///< the highest commit barrier this host sent
    int64_t m_lastCommitPs = 0;   ///< when it last sent a commit message
    ns3::EventId m_commitEvent;
    uint64_t m_beaconsSent = 0;
    uint64_t m_nextBeaconTs = 0; ///< the round time of the next beacon, on the timestamp clock
    /// Rejoining: how far above a join timestamp the clock goes, where the last join put it
    /// (0: never out), and when.
    int64_t m_joinMarginNs = 0;
    uint64_t m_joinedAt = 0;
    int64_t m_lastJoinPs = 0;
    std::vector<OnePipeEndpoint*> m_processes;
    /// With receive loss only: what the NIC's representative last heard from each process,
    /// the round and the commit barrier of its last beacon that reached it (paper 7.1: "a CPU
    /// core as representative of each switch and NIC"; spec [D] 8: the NIC aggregates its
    /// processes' barriers). A lib1pipe receiver drops each with `receive_loss`.
    struct NicView
    {
        uint64_t barrier = 0;
        uint64_t commit = 0;
    };
    std::vector<NicView> m_nicViews;
    /// The minima over the processes whose last beacon was lost (none: no bound): the host's
    /// barriers stay at or below them.
    uint64_t m_nicBarrier = UINT64_MAX;
    uint64_t m_nicCommit = UINT64_MAX;
    ns3::EventId m_beaconEvent;
};

} // namespace incsim::onepipe

#endif
