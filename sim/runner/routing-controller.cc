#include "sim/runner/routing-controller.h"

#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/schema/schema.h"

#include <fmt/format.h>

namespace incsim
{

RoutingController::RoutingController(const Topology& topology, const ParamView& routing)
    : m_topology(topology),
      m_metric(routing.Choice("metric", RouteMetricChoices())),
      m_mode(routing.Choice("ecmp", EcmpModeChoices())),
      m_reconvergePs(routing.DurationNs("reconverge_delay") * kPsPerNs),
      m_requireDag(routing.Bool("require_dag"))
{
}

void
RoutingController::Recompute(const std::vector<bool>& linkUp, const std::vector<bool>& nodeUp)
{
    m_routes = ComputeEcmpRoutes(m_topology, m_metric, linkUp, nodeUp);
}

void
RoutingController::RequireDag(const std::string& who) const
{
    DagCheck check = CheckRoutingDag(m_topology, m_routes);
    if (!check.acyclic)
    {
        std::string cycle;
        for (const auto& hop : check.cycle)
        {
            cycle += (cycle.empty() ? "" : ", ") + hop;
        }
        throw ConfigError(fmt::format("{} needs routes that form a DAG, but the routes on this "
                                      "topology have a cycle of directed links: {}",
                                      who,
                                      cycle));
    }
}

} // namespace incsim
