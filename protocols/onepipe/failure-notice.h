#ifndef INCSIM_ONEPIPE_FAILURE_NOTICE_H
#define INCSIM_ONEPIPE_FAILURE_NOTICE_H

#include <cstdint>
#include <vector>

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

/// A recall the controller could not deliver because its receiver had failed (paper 5.2):
/// kept for the receiver's recovery, which drops message (src, sequence) if it holds it.
struct UndeliveredRecall
{
    uint32_t dst = 0;
    uint32_t src = 0;
    uint32_t sequence = 0;
};

/// Controller forwarding (paper 5.2; M12): the sender `src` asks the controller to carry the
/// segments [from, to) of its prepare channel to `dst` (prepares and recalls), whose
/// retransmissions went unanswered; `channel` names that channel (a channel made later to the
/// same receiver is another one).
struct ForwardRequest
{
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t channel = 0;
    uint32_t from = 0;
    uint32_t to = 0;
};

/// What a failed process learns when it recovers (paper 5.2, Receiver Recovery): its own
/// failure and those announced since (Discard), the recalls addressed to it, and who is
/// failed now.
struct RecoveryNotice
{
    std::vector<ProcessFailure> failuresSince;
    std::vector<UndeliveredRecall> recalls;
    std::vector<ProcessFailure> failedNow;
};

/// What the processes do on a failure notice: everything (`full`), or, as the checker's
/// negative controls, everything but Discard or but Recall, or a recovery that skips the
/// recalls the controller kept.
enum class ControllerMode
{
    Full,
    SkipDiscard,
    SkipRecall,
    SkipRecoveryRecalls ///< a recovering receiver ignores the recalls kept for it
};

} // namespace incsim::onepipe

#endif
