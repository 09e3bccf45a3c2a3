#ifndef INCSIM_RUNNER_VALIDATION_H
#define INCSIM_RUNNER_VALIDATION_H

#include <cstddef>

namespace incsim
{

class Scenario;

struct ValidationSummary
{
    size_t hosts = 0;
    size_t switches = 0;
    size_t links = 0;
};

/// Checks everything `incsim run` would check before simulating, by assembling the whole
/// simulation (topology, routes, fault targets, switch programs and entries, protocol) in a
/// scratch directory and tearing it down: `validate` and `sweep --dry-run` both use it.
/// Throws what a run would throw (InputError, ConfigError).
ValidationSummary ValidateByAssembly(const Scenario& scenario);

} // namespace incsim

#endif
