#include "protocols/switchtx/switchtx-txn.h"

#include <algorithm>
#include <stdexcept>

namespace incsim::switchtx
{

MsgType
ReplyOf(Phase phase)
{
    switch (phase)
    {
    case Phase::Lock:
        return MsgType::LockOk;
    case Phase::Validate:
        return MsgType::ValidateOk;
    case Phase::CommitBackup:
        return MsgType::ReplicateOk;
    case Phase::CommitPrimary:
        return MsgType::CommitOk;
    case Phase::VersionCopy:
        return MsgType::VersionCopyOk;
    default:
        throw std::logic_error("switchtx: no gathered reply for this phase");
    }
}

Phase
CompletedBy(MsgType type)
{
    switch (type)
    {
    case MsgType::LockOk:
        return Phase::Lock;
    case MsgType::ValidateOk:
        return Phase::Validate;
    case MsgType::ReplicateOk:
        return Phase::CommitBackup;
    case MsgType::CommitOk:
        return Phase::CommitPrimary;
    case MsgType::VersionCopyOk:
        return Phase::VersionCopy;
    default:
        return Phase::Done;
    }
}

Phase
NextPhase(const TxnPlan& plan, Phase done)
{
    switch (done)
    {
    case Phase::Lock:
        if (!plan.readPrimaries.empty())
        {
            return Phase::Validate;
        }
        [[fallthrough]];
    case Phase::Validate:
        if (!plan.writeBackups.empty())
        {
            return Phase::CommitBackup;
        }
        [[fallthrough]];
    case Phase::CommitBackup:
        return plan.writePrimaries.empty() ? Phase::Done : Phase::CommitPrimary;
    case Phase::VersionCopy:
        return Phase::ValidateRead;
    default:
        return Phase::Done;
    }
}

const std::vector<uint32_t>&
Members(const TxnPlan& plan, Phase phase)
{
    static const std::vector<uint32_t> none;
    switch (phase)
    {
    case Phase::Lock:
    case Phase::CommitPrimary:
        return plan.writePrimaries;
    case Phase::Validate:
    case Phase::VersionCopy:
    case Phase::ValidateRead:
        return plan.readPrimaries;
    case Phase::CommitBackup:
        return plan.writeBackups;
    default:
        return none;
    }
}

bool
Contains(const std::vector<uint32_t>& sorted, uint32_t host)
{
    return std::binary_search(sorted.begin(), sorted.end(), host);
}

} // namespace incsim::switchtx
