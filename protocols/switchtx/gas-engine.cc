#include "protocols/switchtx/gas-engine.h"

namespace incsim::switchtx
{

GasEngine::GasEngine()
    : m_owner(contract::SWITCHTX_SLOTS, 0),
      m_aborted(contract::SWITCHTX_SLOTS, 0),
      m_counter(contract::SWITCHTX_SLOTS, 0)
{
}

GasEngine::Action
GasEngine::Process(ControlHeader& header, const GasSlice& slice)
{
    const uint32_t slot = SlotOf(header.txnId);
    const auto owner = static_cast<uint16_t>(header.txnId >> kSlotBits);
    if (header.type == MsgType::Init)
    {
        m_owner[slot] = owner;
        m_aborted[slot] = 0;
        m_counter[slot] = 0;
        ++m_counters.inits;
        return Action::Drop;
    }
    if (m_owner[slot] != owner)
    {
        ++m_counters.stale;
        return Action::Drop;
    }
    if (m_aborted[slot] != 0)
    {
        ++m_counters.droppedAborted;
        return Action::Drop;
    }
    switch (header.type)
    {
    case MsgType::Fail:
        m_aborted[slot] = 1;
        ++m_counters.aborted;
        return Action::Scatter;
    case MsgType::LockOk:
    case MsgType::ValidateOk:
    case MsgType::ReplicateOk:
    case MsgType::CommitOk:
    case MsgType::VersionCopyOk: {
        const uint32_t total = uint32_t{m_counter[slot]} + header.count;
        if (total < slice.threshold)
        {
            m_counter[slot] = static_cast<uint16_t>(total);
            ++m_counters.gathered;
            return Action::Drop;
        }
        m_counter[slot] = 0;
        header.count = static_cast<uint16_t>(total);
        if (header.type == MsgType::CommitOk)
        {
            ++m_counters.toClient;
            return Action::ToClient;
        }
        ++m_counters.scattered;
        return Action::Scatter;
    }
    default:
        return Action::Drop;  // not a Table 1 type: nothing to gather
    }
}

} // namespace incsim::switchtx
