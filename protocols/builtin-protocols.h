#ifndef INCSIM_PROTOCOLS_BUILTIN_PROTOCOLS_H
#define INCSIM_PROTOCOLS_BUILTIN_PROTOCOLS_H

// The protocols built into incsim: every incsim_add_protocol call in protocols/*/CMakeLists.txt
// (cmake/Protocols.cmake generates the definitions, in the build tree).

#include <string>
#include <vector>

namespace incsim
{

/// Adds every built-in protocol to Protocols(). Idempotent; the registry is keyed by name, so
/// the order of the calls does not matter.
void RegisterBuiltinProtocols();

/// The names the built-in protocols register under, sorted.
std::vector<std::string> BuiltinProtocolNames();

/// The figure registries of the built-in protocols (their analysis/figures.json), as paths from
/// the source root, in the order of the protocols' names.
std::vector<std::string> BuiltinFigureRegistries();

} // namespace incsim

#endif
