#include "sim/topology/topology-registry.h"

namespace incsim
{

Registry<TopologyGenerator>&
TopologyGenerators()
{
    // Function-local, so generators may register from any translation unit in any order.
    static Registry<TopologyGenerator> registry;
    return registry;
}

} // namespace incsim
