#include "protocols/gotthard/gotthard-history.h"

namespace incsim::gotthard
{

OpType
ToOpType(txn::AccessType type)
{
    switch (type)
    {
    case txn::AccessType::Read:
        return OpType::Compare;
    case txn::AccessType::Write:
        return OpType::Write;
    case txn::AccessType::Fetch:
        return OpType::Read;
    }
    return OpType::Read;
}

txn::AccessType
ToAccessType(OpType type)
{
    switch (type)
    {
    case OpType::Compare:
        return txn::AccessType::Read;
    case OpType::Write:
        return txn::AccessType::Write;
    case OpType::Read:
        return txn::AccessType::Fetch;
    }
    return txn::AccessType::Fetch;
}

void
ToHistory(const std::vector<Op>& ops, std::vector<txn::HistoryOp>& out)
{
    out.clear();
    for (const Op& op : ops)
    {
        out.push_back(txn::HistoryOp{ToAccessType(op.type), op.key, op.value, std::nullopt});
    }
}

} // namespace incsim::gotthard
