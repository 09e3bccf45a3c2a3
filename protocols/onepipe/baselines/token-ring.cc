#include "protocols/onepipe/baselines/token-ring.h"

#include "sim/host/host-node.h"

namespace incsim::onepipe
{

void
TokenProcess::Start()
{
    if (ProcessId() == 0)
    {
        UseToken(1);
    }
}

void
TokenProcess::Transmit(uint32_t firstSequence, uint32_t bytes)
{
    m_pending.push_back(Pending{firstSequence, bytes});
}

void
TokenProcess::Receive(const BaselineHeader& header)
{
    if (header.kind == BaselineKind::Sequenced)
    {
        Hold(header);
    }
    else if (header.kind == BaselineKind::Token)
    {
        Charge(MessageCostPs(), [this, key = header.key]() { UseToken(key); });
    }
}

void
TokenProcess::UseToken(uint64_t nextKey)
{
    if (!Host().IsUp())
    {
        return; // the token is lost with its holder
    }
    while (!m_pending.empty())
    {
        const Pending broadcast = m_pending.front();
        m_pending.pop_front();
        BaselineHeader header;
        header.kind = BaselineKind::Sequenced;
        header.src = ProcessId();
        header.sequence = broadcast.firstSequence;
        header.key = nextKey++;
        header.bytes = broadcast.bytes;
        SendToAll(header);
        Hold(header); // its own place in the order
    }
    BaselineHeader token;
    token.kind = BaselineKind::Token;
    token.src = ProcessId();
    token.key = nextKey;
    SendTo((ProcessId() + 1) % Processes(), token, BaselineHeader::kBytes);
}

} // namespace incsim::onepipe
