#ifndef INCSIM_BENCH_TRAFFIC_H
#define INCSIM_BENCH_TRAFFIC_H

#include <cstdint>
#include <string>

namespace incsim
{
class Topology;
} // namespace incsim

namespace incsim::bench
{

/// The network and traffic every variant simulates: a k-ary fat-tree, every host sending one
/// frame per message, at a constant rate, round-robin to all other hosts.
struct TrafficSpec
{
    uint32_t k = 8;
    uint64_t rateBps = 100'000'000'000ULL;
    int64_t delayNs = 1000;
    /// Offered load per host, as a fraction of its link rate.
    double load = 0.4;
    /// incsim's udp workload message size; one message is one frame.
    uint32_t messageBytes = 1000;
    uint64_t seed = 1;

    /// Bytes each frame occupies on the wire in every variant: incsim's frame is the message
    /// plus the udp protocol's 24-byte header, Ethernet/IPv4/UDP headers (42) and preamble, FCS
    /// and inter-frame gap (24). The ns-3 references size their packets (PPP header included)
    /// to the same number of bytes, so serialisation times are identical.
    uint32_t WireBytes() const { return messageBytes + 24 + 42 + 24; }
    /// Bytes of a point-to-point frame that ns-3 serialises: WireBytes() in all.
    uint32_t PppFrameBytes() const { return WireBytes(); }
    /// Constant send interval per host, as incsim's udp workload computes it ("constant"
    /// arrivals): wire bits over (rate * load), truncated to the picosecond.
    int64_t IntervalPs() const;
};

/// Builds the fat-tree with incsim's own generator, so the three variants share one graph:
/// same nodes, links and port numbers, hence the same ECMP routes.
Topology BuildBenchTopology(const TrafficSpec& spec, int hostsPerEdge = -1);

/// Destination of host `self`'s n-th message (n = 0, 1, ...), as incsim's all-to-all pattern
/// picks it: self+1, self+2, ..., wrapping round and skipping self.
inline uint32_t
AllToAllDestination(uint32_t self, uint64_t n, uint32_t numHosts)
{
    return static_cast<uint32_t>((self + 1 + n % (numHosts - 1)) % numHosts);
}

/// What one variant measured.
struct VariantResult
{
    std::string name;
    int64_t simulatedNs = 0;
    uint64_t hops = 0; ///< frames delivered at the far end of a link
    uint64_t framesSent = 0;
    uint64_t framesReceived = 0; ///< by destination hosts
    uint64_t drops = 0;
    uint64_t events = 0;
    double wallSeconds = 0; ///< Simulator::Run only
    double cpuSeconds = 0;  ///< process CPU time of Simulator::Run: steadier on a busy machine
    double HopsPerSecond() const { return wallSeconds > 0 ? hops / wallSeconds : 0; }
    double HopsPerCpuSecond() const { return cpuSeconds > 0 ? hops / cpuSeconds : 0; }
};

/// Runs `run` (returning a VariantResult) `repeat` times and keeps the fastest run, the least
/// disturbed by other load on the machine.
template <typename Run>
VariantResult
FastestOf(int repeat, Run run)
{
    VariantResult best = run();
    for (int i = 1; i < repeat; ++i)
    {
        VariantResult next = run();
        if (next.wallSeconds < best.wallSeconds)
        {
            best = next;
        }
    }
    return best;
}

/// Stops the simulator at `simTimeNs`, runs it, and records wall and CPU time, event count and
/// simulated time into `result`. Setup before and teardown after are not timed.
void TimedSimulatorRun(int64_t simTimeNs, VariantResult& result);

} // namespace incsim::bench

#endif
