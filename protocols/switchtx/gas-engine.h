#ifndef INCSIM_SWITCHTX_GAS_ENGINE_H
#define INCSIM_SWITCHTX_GAS_ENGINE_H

#include "protocols/switchtx/switchtx-wire.h"

#include <cstdint>
#include <vector>

namespace incsim::switchtx
{

/// Table 1 in software: what p4/switchtx.p4 does for a message coming up at the root of a
/// coordination tree, for the in-server GaS baseline (Fig. 11), where a server's thread
/// gathers and scatters. Per slot, the same state as the switch (owner = txn_id above the
/// slot bits, the aborted and early flags, counter), and the same cases: init installs the
/// transaction and clears the slot, unless it is late (of an attempt before the owner's) or
/// its transaction was installed early; a message of a later attempt than the owner's
/// installs it early (the init, a datagram the gatherer may serve after it under +Reorder, is
/// still to come); a message of an earlier attempt is stale and dropped; a message of an
/// aborted transaction is dropped; the first fail sets aborted and is scattered; gathered
/// types add their count, and the message that reaches the threshold is scattered to the next
/// phase (commit_ok: sent to the client) with the total as its count.
class GasEngine
{
  public:
    enum class Action
    {
        Drop,     ///< consumed (init, gathered below the threshold) or dropped
        Scatter,  ///< send to the slice's scatter group
        ToClient  ///< the last commit_ok: send to the client
    };

    struct Counters
    {
        uint64_t inits = 0;
        uint64_t gathered = 0;  ///< counted and consumed below the threshold
        uint64_t scattered = 0;
        uint64_t toClient = 0;
        uint64_t aborted = 0;  ///< first fails
        uint64_t stale = 0;
        uint64_t early = 0;  ///< installed by a message that outran its init
        uint64_t droppedAborted = 0;
    };

    GasEngine();

    /// Processes `header` (coming up) with this gatherer's `slice`; updates the header's
    /// count on a scatter, as the switch does.
    Action Process(ControlHeader& header, const GasSlice& slice);
    /// The control plane takes `slot` back from its owner (a crashed coordinator's, §3.5):
    /// owner 0 is a txn id no attempt has, so the owner's later messages are stale.
    void Recycle(uint32_t slot) { m_owner[slot] = 0; }
    const Counters& GetCounters() const { return m_counters; }

  private:
    std::vector<uint16_t> m_owner;
    std::vector<uint8_t> m_flags;  ///< contract::FLAG_ABORTED, FLAG_EARLY
    std::vector<uint16_t> m_counter;
    Counters m_counters;
};

} // namespace incsim::switchtx

#endif
