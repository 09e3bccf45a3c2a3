#include "sim/topology/topology-registry.h"

#include <fmt/format.h>

namespace incsim
{

Registry<TopologyGenerator>&
TopologyGenerators()
{
    // Function-local, so generators may register from any translation unit in any order.
    static Registry<TopologyGenerator> registry;
    return registry;
}

void
RequireGeneratedSize(const ParamView& params, double hosts, double switches)
{
    if (hosts + switches > kMaxGeneratedNodes)
    {
        params.Fail("", fmt::format("this topology would have {:.0f} hosts and {:.0f} switches; "
                                    "generators build at most {:.0f} nodes",
                                    hosts, switches, kMaxGeneratedNodes));
    }
}

} // namespace incsim
