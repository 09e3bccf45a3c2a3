#ifndef INCSIM_ONEPIPE_BEACON_PROCESSOR_H
#define INCSIM_ONEPIPE_BEACON_PROCESSOR_H

#include "protocols/onepipe/failure-detector.h"
#include "sim/core/rng.h"
#include "sim/net/frame.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace incsim
{
class SwitchDevice;
}

namespace incsim::onepipe
{

/// How a BeaconProcessor reaches the switch and how long its work takes. Filled from the
/// scenario (OnePipeProtocol), whose spec holds the defaults.
struct BeaconProcessorConfig
{
    int64_t intervalNs = 0;
    /// Beacon intervals without a beacon after which an input port stops counting.
    int64_t portTimeoutIntervals = 0;
    /// Ports towards a switch of the same or a higher tier (see onepipe.p4).
    uint32_t upPorts = 0;
    /// Each down port's group: the inputs that cannot feed it (PortGroups; 0 for none).
    std::vector<uint32_t> portGroups;
    /// Ports of hosts that do not run lib1pipe: neither live nor commit inputs.
    uint32_t silentPorts = 0;
    uint8_t priority = 0;
    /// One way between the switch and the processor, on top of the switch's CPU-port service
    /// time: zero for the switch CPU, the link and DMA for a host representative.
    int64_t linkDelayPs = 0;
    /// From deciding to broadcast until the beacons reach the switch's ingress (computing the
    /// minimum and sending one beacon per port).
    int64_t broadcastDelayPs = 0;
    /// A host representative runs lib1pipe's receive path: it drops each beacon it receives
    /// with this probability (receive_loss), drawn from `lossRng`.
    double receiveLoss = 0;
    Rng lossRng{uint64_t{0}};
    /// Reliable service: every port's commit barrier counts (onepipe.p4's commit_live) until
    /// the controller removes it.
    bool commitInputs = false;
};

/// 1Pipe's barrier aggregation off the switching chip (paper 6.2.2 and 6.2.3): the chip runs
/// onepipe.p4 in MODE_CPU, forwarding data untouched and handing every beacon to its CPU port.
/// This processor, the switch CPU or a representative host, keeps the barrier of each input
/// port, and sends each output the minimum over the live inputs that can feed it (those
/// outside its group, as onepipe.p4): at once on every output port whose barrier a received
/// beacon advanced, and at every synchronized beacon time on the
/// ports that had no beacon since the previous one (so a port hears at least one per interval,
/// and usually just one). Beacons leave as packet-outs through the chip, so they
/// queue behind the data already forwarded on each port (FIFO), which keeps the barrier a
/// lower bound of later timestamps on the link. Live ports, their timeout and the admission
/// of a returning port follow onepipe.p4, and so does the reliable service's commit barrier:
/// aggregated from beacons over the commit inputs (which a timeout does not remove), sent
/// with the best-effort barrier, a beacon going out when either advanced. The switch's
/// failure detector and the controller see its commit inputs (CommitInputs).
class BeaconProcessor : public CommitInputs
{
  public:
    BeaconProcessor(SwitchDevice& device, const BeaconProcessorConfig& config);
    ~BeaconProcessor() override;
    BeaconProcessor(const BeaconProcessor&) = delete;
    BeaconProcessor& operator=(const BeaconProcessor&) = delete;

    /// Takes over the switch's CPU port and starts the beacon clock.
    void Start();

    uint64_t BeaconsSent(uint32_t port) const { return m_ports[port].beaconsSent; }
    uint64_t ReceiveDrops() const { return m_receiveDrops; }
    uint32_t NumPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    SwitchDevice& Device() const { return m_device; }

    uint32_t SilentCommitInputs() const override;
    uint64_t LastCommit(uint32_t port) const override { return m_ports[port].commit; }
    void RemoveCommitInput(uint32_t port) override { m_ports[port].commitLive = false; }
    uint32_t LivePorts() const override;
    void ReadmitCommitInput(uint32_t port) override;

  private:
    struct Port
    {
        uint64_t barrier = 0;
        uint64_t commit = 0;
        int64_t lastSeenPs = 0;
        bool live = true;
        bool commitLive = false; ///< counts in the commit barrier
        uint64_t sent = 0; ///< the last barrier broadcast on this port
        uint64_t sentCommit = 0;
        bool busy = false; ///< had a beacon since the last tick
        uint64_t beaconsSent = 0;
    };

    /// Every port's state as at start: live unless a silent host's; a commit input too if
    /// `commitInputs` (at start; after a crash the failure detector re-admits them).
    void ResetPorts(bool commitInputs);
    void FromChip(FramePtr frame);
    /// A crash wipes the processor's state, as it does the chip's registers, and the work it
    /// had in flight.
    void SwitchStateChanged(bool up);
    /// A beacon from `port`; `join`: its join timestamp (0 if it is not a join beacon).
    void Record(uint64_t generation, uint32_t port, uint64_t barrier, uint64_t commit,
                uint64_t join);
    /// Whether `port` is out: timed out, or its neighbour sent the maximum (onepipe.p4).
    bool Out(const Port& port) const;
    void Tick();
    /// Computes the barriers and sends them after the broadcast delay: to ports whose barrier
    /// advanced, and on a tick also to ports without a beacon since the last tick.
    void Broadcast(bool tick);
    /// A barrier for every output: `second` for the ports in `group`, `min` for the others.
    struct Minima
    {
        uint64_t min = 0;
        uint64_t second = 0;
        uint32_t group = 0;

        uint64_t For(uint32_t port) const { return (group >> port) & 1 ? second : min; }
        /// Some port's barrier may be above what `last` gave it.
        bool AdvancedFrom(const Minima& last) const
        {
            return min > last.min || second > last.second || group != last.group;
        }
    };
    /// The barriers to send: best effort and commit.
    struct Barriers
    {
        Minima barrier;
        Minima commit;
        uint64_t joinUp = 0;   ///< the join timestamp for up ports that are out
        uint64_t joinDown = 0; ///< and for the others
    };
    /// The minimum over the inputs in `inputs` (a port mask) outside each port's group, from
    /// the smallest and the smallest outside its port's group: O(ports), no per-output loop.
    template <typename Value>
    Minima MinimaOver(uint32_t inputs, Value value) const;
    uint32_t GroupOf(uint32_t port) const;
    void Send(uint64_t generation, Barriers barriers, bool tick);

    SwitchDevice& m_device;
    BeaconProcessorConfig m_config;
    std::vector<Port> m_ports;
    uint64_t m_upHigh = 0;  ///< highest barrier broadcast on up ports
    uint64_t m_allHigh = 0; ///< highest barrier broadcast on other ports
    uint64_t m_commitUpHigh = 0;
    uint64_t m_commitAllHigh = 0;
    Barriers m_lastBroadcast;
    int64_t m_lastBroadcastPs = std::numeric_limits<int64_t>::min() / 2;
    uint64_t m_joinAbove = 0; ///< the highest join timestamp from an up port
    uint32_t m_blockedBy = 0; ///< the up ports whose last beacon was a join
    /// Bumped by a crash, so that work scheduled before it is dropped.
    uint64_t m_generation = 0;
    ns3::EventId m_tick;
    uint64_t m_receiveDrops = 0;
};

} // namespace incsim::onepipe

#endif
