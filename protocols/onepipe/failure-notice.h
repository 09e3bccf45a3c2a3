#ifndef INCSIM_ONEPIPE_FAILURE_NOTICE_H
#define INCSIM_ONEPIPE_FAILURE_NOTICE_H

#include <cstdint>

namespace incsim::onepipe
{

/// The controller's failure broadcast (paper 5.2, Broadcast; spec M7) names each failed
/// process with its failure timestamp: every message of it below `ts` is held by all its
/// receivers and is delivered, none at or above `ts` was delivered anywhere and is discarded.
struct ProcessFailure
{
    uint32_t process = 0;
    uint64_t ts = 0;
};

/// What the processes do on a failure notice: everything (`full`), or, as the checker's
/// negative controls, everything but Discard or but Recall.
enum class ControllerMode
{
    Full,
    SkipDiscard,
    SkipRecall
};

} // namespace incsim::onepipe

#endif
