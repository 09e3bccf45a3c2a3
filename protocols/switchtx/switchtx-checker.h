#ifndef INCSIM_SWITCHTX_SWITCHTX_CHECKER_H
#define INCSIM_SWITCHTX_SWITCHTX_CHECKER_H

#include "sim/scenario/protocol.h"

#include <string>

namespace incsim::switchtx
{

/// The transaction history's properties (txn::CheckHistory, with every primary's final
/// state), and that every backup ends equal to its primary with no lock held (atomicity
/// after quiescence: a run whose clients stopped early enough for every attempt to settle).
CheckReport CheckRun(const std::string& runDir);

} // namespace incsim::switchtx

#endif
