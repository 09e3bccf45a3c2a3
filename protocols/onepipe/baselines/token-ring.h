#ifndef INCSIM_ONEPIPE_BASELINES_TOKEN_RING_H
#define INCSIM_ONEPIPE_BASELINES_TOKEN_RING_H

#include "protocols/onepipe/baselines/ordered-broadcast.h"

#include <deque>

namespace incsim::onepipe
{

/// Token-passing total-order broadcast (Totem-style, the paper's [86]): a token circulates
/// through the processes in id order carrying the next global sequence number. Only the
/// holder broadcasts: it stamps everything it has pending with consecutive numbers, sends it,
/// and passes the token on (handling the token costs one message of CPU). Receivers deliver in
/// sequence number order without gaps. Process 0 creates the token at start.
class TokenProcess : public OrderedBroadcast
{
  public:
    void Start();

  private:
    struct Pending
    {
        uint32_t firstSequence;
        uint32_t bytes;
    };

    void Transmit(uint32_t firstSequence, uint32_t bytes) override;
    bool Deliverable(const Held& next) const override { return next.key == m_nextKey; }
    void Released(const Held& /*held*/) override { ++m_nextKey; }
    void Receive(const BaselineHeader& header) override;
    void UseToken(uint64_t nextKey);

    std::deque<Pending> m_pending;
    uint64_t m_nextKey = 1;
};

} // namespace incsim::onepipe

#endif
