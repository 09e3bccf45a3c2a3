#include "protocols/gotthard/gotthard-store.h"

#include "protocols/gotthard/gotthard-history.h"
#include "sim/core/sim-time.h"

namespace incsim::gotthard
{

namespace
{
uint64_t
ClientKey(uint32_t client, uint16_t port)
{
    return (uint64_t{client} << 16) | port;
}
} // namespace

ns3::TypeId
GotthardStore::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::GotthardStore")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<GotthardStore>();
    return tid;
}

void
GotthardStore::Configure(CsvWriter* log, uint32_t host)
{
    m_log = log;
    m_host = host;
}

uint64_t
GotthardStore::ValueOf(uint32_t key) const
{
    const auto it = m_values.find(key);
    return it == m_values.end() ? 0 : it->second;
}

void
GotthardStore::DoReceive(const Datagram& datagram)
{
    std::optional<Message> request = Message::Decode(datagram.bytes, datagram.materialised);
    if (!request || request->header.response || request->header.fragCount == 0 ||
        request->header.fragSeq >= request->header.fragCount)
    {
        ++m_counters.malformed;
        return;
    }
    const uint32_t client = datagram.srcHost;
    const uint16_t port = datagram.srcPort;
    Charge(MessageCostPs(), [this, client, port, message = std::move(*request)]() mutable {
        Accept(client, port, std::move(message));
    });
}

void
GotthardStore::DoCrash()
{
    for (auto& [key, state] : m_clients)
    {
        state.partialId = 0;
        state.partial = Reassembly();
    }
}

void
GotthardStore::Accept(uint32_t client, uint16_t port, Message request)
{
    ClientState& state = m_clients[ClientKey(client, port)];
    const uint64_t id = request.header.txnId;
    if (id == state.latest)
    {
        // A retransmitted fragment of the latest attempt: the same fragment of its answer.
        ++m_counters.duplicates;
        if (request.header.fragSeq < state.answer.size())
        {
            Answer(client, port, state.answer[request.header.fragSeq]);
        }
        return;
    }
    if (id < state.latest || id < state.partialId)
    {
        // Its client settled this attempt before sending a newer one: the store answered it,
        // or a switch aborted its only copy, or the client crashed and gave it up. Executing
        // it now could apply a logical transaction twice.
        ++m_counters.stale;
        return;
    }
    if (request.header.fragCount > 1)
    {
        if (state.partialId != id)
        {
            // A newer attempt: the older one's fragments are left over from a crashed client.
            state.partialId = id;
            state.partial = Reassembly();
        }
        switch (state.partial.Add(std::move(request)))
        {
        case Reassembly::Result::Incomplete:
            return;
        case Reassembly::Result::Invalid:
            ++m_counters.malformed;
            return;
        case Reassembly::Result::Complete:
            request = state.partial.Take();
            state.partialId = 0;
            break;
        }
    }
    state.latest = id;
    Execute(client, request, state.answer);
    for (std::vector<uint8_t>& packet : state.answer)
    {
        Answer(client, port, packet);
        packet[0] |= Header::kReplayBit;  // every later copy is a replay
    }
}

void
GotthardStore::Execute(uint32_t client, const Message& request,
                       std::vector<std::vector<uint8_t>>& answer)
{
    // Algorithm 1: abort if a compare is stale; otherwise apply the writes.
    bool stale = false;
    for (const Op& op : request.ops)
    {
        stale |= op.type == OpType::Compare && op.value != ValueOf(op.key);
    }
    if (!stale)
    {
        for (const Op& op : request.ops)
        {
            if (op.type == OpType::Write)
            {
                m_values[op.key] = op.value;
            }
        }
    }
    const uint64_t sequence = m_sequence++;
    if (m_log)
    {
        // Compares and writes as requested; reads with the value they return, which
        // Algorithm 1 reads after applying the writes (lines 7-11).
        ToHistory(request.ops, m_historyOps);
        for (txn::HistoryOp& op : m_historyOps)
        {
            op.value = op.type == txn::AccessType::Fetch ? ValueOf(static_cast<uint32_t>(op.key))
                                                         : op.value;
        }
        txn::LogServer(*m_log, m_host, 0, 0, sequence, client, request.header.txnId, !stale,
                       m_historyOps, NowPs() / kPsPerNs);
    }
    stale ? ++m_counters.aborts : ++m_counters.commits;
    Message response;
    response.header = request.header;
    response.header.response = true;
    response.header.fromSwitch = false;
    response.header.replay = false;
    response.header.status = stale ? Status::Abort : Status::Ok;
    response.ops = request.ops;
    for (Op& op : response.ops)
    {
        op.value = ValueOf(op.key);
    }
    response.EncodeFragments(answer);
}

void
GotthardStore::Answer(uint32_t client, uint16_t port, const std::vector<uint8_t>& packet)
{
    Send(client, port, packet.data(), static_cast<uint32_t>(packet.size()),
         static_cast<uint32_t>(packet.size()));
}

} // namespace incsim::gotthard
