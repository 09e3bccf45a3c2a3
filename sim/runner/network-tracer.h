#ifndef INCSIM_RUNNER_NETWORK_TRACER_H
#define INCSIM_RUNNER_NETWORK_TRACER_H

#include "sim/net/drop-reason.h"
#include "sim/net/frame.h"

#include <ns3/event-id.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{
class PcapFileWrapper;
}

namespace incsim
{

class CsvWriter;
class World;

/// Connects the network's trace sources to the enabled outputs: packets.csv (per-frame
/// events), queues.csv (sampled egress queue depths) and per-port pcap files. With none of
/// them enabled it connects nothing, so the per-packet path pays nothing.
class NetworkTracer
{
  public:
    explicit NetworkTracer(World& world);
    ~NetworkTracer();

    /// Stops sampling and closes the pcap files; throws OutputError if a pcap write failed.
    void Close();

  private:
    void OnReceive(const Frame& frame, uint32_t node, uint32_t port);
    void OnEnqueue(const Frame& frame, uint32_t node, uint32_t port);
    void OnTransmit(const Frame& frame, uint32_t node, uint32_t port);
    void OnDrop(const Frame& frame, uint32_t node, uint32_t port, DropReason reason);
    void OnPcap(const Frame& frame, uint32_t node, uint32_t port);
    void Event(const char* event, const Frame& frame, uint32_t node, uint32_t port,
               const char* reason);
    void SampleQueues();
    /// The pcap file of a port, relative to the run directory.
    std::string PcapName(uint32_t node, uint32_t port) const;

    World& m_world;
    CsvWriter* m_packets = nullptr;
    CsvWriter* m_queues = nullptr;
    int64_t m_samplePs = 0;
    ns3::EventId m_sampleEvent;
    std::vector<std::vector<uint64_t>> m_lastDepth; // node, port: bytes at the last sample
    std::vector<std::vector<ns3::Ptr<ns3::PcapFileWrapper>>> m_pcap;
    std::vector<uint8_t> m_pcapScratch;
};

} // namespace incsim

#endif
