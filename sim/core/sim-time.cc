#include "sim/core/sim-time.h"

namespace incsim
{

void
EnsurePicosecondResolution()
{
    static bool done = false;
    if (!done)
    {
        ns3::Time::SetResolution(ns3::Time::PS);
        done = true;
    }
}

} // namespace incsim
