#include "topologies/register.h"

namespace incsim
{

void
RegisterTopologyGenerators()
{
    // Registry::Add replaces by name, so calling this again is harmless.
    Registry<TopologyGenerator>& registry = TopologyGenerators();
    registry.Add("fat-tree", FatTreeGenerator());
    registry.Add("leaf-spine", LeafSpineGenerator());
    registry.Add("onepipe-testbed", OnePipeTestbedGenerator());
    registry.Add("dumbbell", DumbbellGenerator());
    registry.Add("star", StarGenerator());
    registry.Add("wan", WanGenerator());
    registry.Add("gotthard", GotthardGenerator());
    registry.Add("switchtx-testbed", SwitchTxTestbedGenerator());
}

} // namespace incsim
