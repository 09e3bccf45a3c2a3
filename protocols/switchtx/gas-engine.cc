#include "protocols/switchtx/gas-engine.h"

namespace incsim::switchtx
{

GasEngine::GasEngine()
    : m_owner(contract::SWITCHTX_SLOTS, 0),
      m_flags(contract::SWITCHTX_SLOTS, 0),
      m_counter(contract::SWITCHTX_SLOTS, 0)
{
}

GasEngine::Action
GasEngine::Process(ControlHeader& header, const GasSlice& slice)
{
    const uint32_t slot = SlotOf(header.txnId);
    const auto txn = static_cast<uint16_t>(header.txnId >> kSlotBits);
    const bool init = header.type == MsgType::Init;
    // The switch's rule (p4/switchtx.p4, step 1): attempts compare in serial-number order; an
    // init takes the slot unless it is late, any other message takes it from an earlier
    // attempt (it outran its init) and is otherwise its owner's or stale.
    const uint16_t owner = m_owner[slot];
    const auto ahead = static_cast<uint16_t>(txn - owner);
    const auto behind = static_cast<uint16_t>(owner - txn);
    const bool own = ahead == 0;
    const bool empty = owner == 0;
    const bool claim = init ? own || empty || behind > contract::SWITCHTX_LATE_INITS
                            : !own && (empty || ahead < contract::OWNER_HALF);
    if (!claim && !own)
    {
        ++m_counters.stale;
        return Action::Drop;
    }
    const bool early = (m_flags[slot] & contract::FLAG_EARLY) != 0;
    if (init)
    {
        // Its own transaction, installed early by a message, keeps its count and abort.
        if (own && early)
        {
            m_flags[slot] &= static_cast<uint8_t>(~contract::FLAG_EARLY);
            return Action::Drop;
        }
        m_owner[slot] = txn;
        m_flags[slot] = 0;
        m_counter[slot] = 0;
        ++m_counters.inits;
        return Action::Drop;
    }
    if (claim)
    {
        m_owner[slot] = txn;
        m_flags[slot] = contract::FLAG_EARLY;
        m_counter[slot] = 0;
        ++m_counters.early;
    }
    if ((m_flags[slot] & contract::FLAG_ABORTED) != 0)
    {
        ++m_counters.droppedAborted;
        return Action::Drop;
    }
    switch (header.type)
    {
    case MsgType::Fail:
        m_flags[slot] |= contract::FLAG_ABORTED;
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
