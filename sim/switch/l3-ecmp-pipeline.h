#ifndef INCSIM_SWITCH_L3_ECMP_PIPELINE_H
#define INCSIM_SWITCH_L3_ECMP_PIPELINE_H

#include "sim/core/rng.h"
#include "sim/switch/pipeline.h"

#include <cstdint>
#include <vector>

namespace incsim
{

enum class EcmpMode
{
    PerFlow,  ///< hash of the 5-tuple: a flow stays on one path
    PerPacket ///< random spraying
};

/// IPv4 forwarding to host addresses with ECMP over the routes computed on the topology.
/// A lookup is two array reads (destination host -> group -> port): O(1), with no scan of route
/// entries. Destinations that share a port set share a group, so a switch holds a few groups
/// plus one small index per host rather than a port list per host.
/// Ports whose link is down are skipped (local fast failover) until routes are recomputed.
class L3EcmpPipeline : public SwitchPipeline
{
  public:
    L3EcmpPipeline(uint32_t nodeId, uint32_t numPorts, EcmpMode mode, uint64_t seed);

    void Ingress(Frame& frame) override;
    void InstallRoutes(const EcmpRoutes& routes) override;
    void PortStatusChanged(uint32_t port, bool up) override;
    std::string Name() const override { return "l3-ecmp"; }

  private:
    struct Group
    {
        uint32_t offset = 0;
        uint32_t size = 0;
    };

    void RebuildLiveGroups();
    static constexpr uint32_t kNoGroup = UINT32_MAX;

    uint32_t m_nodeId;
    EcmpMode m_mode;
    uint32_t m_salt;
    Rng m_rng;
    std::vector<bool> m_portUp;
    std::vector<uint32_t> m_groupOfHost; // destination host -> group, or kNoGroup
    // Distinct shortest-path port sets, and the subset of each that is live.
    std::vector<std::vector<uint32_t>> m_groupPorts;
    std::vector<Group> m_liveGroups;
    std::vector<uint32_t> m_livePorts;
};

} // namespace incsim

#endif
