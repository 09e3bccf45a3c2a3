#include "sim/runner/protocol.h"

namespace incsim
{

Registry<ProtocolInfo>&
Protocols()
{
    static Registry<ProtocolInfo> registry;
    return registry;
}

} // namespace incsim
