#ifndef INCSIM_RUNNER_ROUTING_CONTROLLER_H
#define INCSIM_RUNNER_ROUTING_CONTROLLER_H

#include "sim/topology/routing.h"
#include "sim/topology/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace incsim
{

class ParamView;

/// The network's routing controller, configured by /routing: shortest-path ECMP routes (by
/// hops or by delay) over the links and nodes that are up, the ECMP mode switches spread them
/// with, and the delay after a fault before routes are recomputed. The World installs the
/// routes it computes into every switch pipeline and host.
class RoutingController
{
  public:
    RoutingController(const Topology& topology, const ParamView& routing);

    EcmpMode Mode() const { return m_mode; }
    const EcmpRoutes& Routes() const { return m_routes; }
    /// /routing/reconverge_delay: from a fault to the recomputation it causes.
    int64_t ReconvergePs() const { return m_reconvergePs; }
    /// /routing/require_dag.
    bool DagRequired() const { return m_requireDag; }

    /// Recomputes the routes over what is up (empty vectors: everything).
    void Recompute(const std::vector<bool>& linkUp, const std::vector<bool>& nodeUp);
    /// Throws ConfigError, naming `who` and a cycle, unless the routes form a DAG.
    void RequireDag(const std::string& who) const;

  private:
    const Topology& m_topology;
    RouteMetric m_metric;
    EcmpMode m_mode;
    int64_t m_reconvergePs;
    bool m_requireDag;
    EcmpRoutes m_routes;
};

} // namespace incsim

#endif
