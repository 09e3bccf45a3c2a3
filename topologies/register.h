#ifndef INCSIM_TOPOLOGIES_REGISTER_H
#define INCSIM_TOPOLOGIES_REGISTER_H

#include "sim/topology/topology-registry.h"

namespace incsim
{

/// Adds every generator in topologies/ to TopologyGenerators(). Idempotent.
void RegisterTopologyGenerators();

// The generators, one per file; RegisterTopologyGenerators() names them.
TopologyGenerator FatTreeGenerator();
TopologyGenerator LeafSpineGenerator();
TopologyGenerator OnePipeTestbedGenerator();
TopologyGenerator DumbbellGenerator();
TopologyGenerator StarGenerator();
TopologyGenerator WanGenerator();
TopologyGenerator GotthardGenerator();
TopologyGenerator SwitchTxTestbedGenerator();

} // namespace incsim

#endif
