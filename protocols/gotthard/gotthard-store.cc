#include "protocols/gotthard/gotthard-store.h"

#include "sim/core/sim-time.h"

namespace incsim::gotthard
{

namespace
{
uint64_t
RequestKey(uint32_t client, uint16_t port, uint32_t txnId)
{
    return (uint64_t{client} << 48) | (uint64_t{port} << 32) | txnId;
}
} // namespace

uint64_t
StateDigest(const std::map<uint32_t, uint64_t>& values)
{
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    const auto mix = [&hash](uint64_t word) {
        for (int byte = 0; byte < 8; ++byte)
        {
            hash = (hash ^ ((word >> (8 * byte)) & 0xff)) * 1099511628211ull;
        }
    };
    for (const auto& [key, value] : values)
    {
        mix(key);
        mix(value);
    }
    return hash & ((uint64_t{1} << 53) - 1);
}

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
GotthardStore::Configure(CsvWriter* log)
{
    m_log = log;
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
GotthardStore::Accept(uint32_t client, uint16_t port, Message request)
{
    const uint64_t requestKey = RequestKey(client, port, request.header.txnId);
    const auto answered = m_answered.find(requestKey);
    if (answered != m_answered.end())
    {
        // A retransmitted fragment: the same fragment of the first answer.
        ++m_counters.duplicates;
        if (request.header.fragSeq < answered->second.size())
        {
            Answer(client, port, answered->second[request.header.fragSeq]);
        }
        return;
    }
    if (request.header.fragCount > 1)
    {
        Reassembly& partial = m_partial[requestKey];
        switch (partial.Add(std::move(request)))
        {
        case Reassembly::Result::Incomplete:
            return;
        case Reassembly::Result::Invalid:
            ++m_counters.malformed;
            return;
        case Reassembly::Result::Complete:
            request = partial.Take();
            m_partial.erase(requestKey);
            break;
        }
    }
    std::vector<std::vector<uint8_t>>& answer = m_answered[requestKey];
    Execute(client, request, answer);
    for (const std::vector<uint8_t>& packet : answer)
    {
        Answer(client, port, packet);
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
        const int64_t nowNs = NowPs() / kPsPerNs;
        for (size_t i = 0; i < request.ops.size(); ++i)
        {
            const Op& op = request.ops[i];
            const uint64_t value = op.type == OpType::Read ? ValueOf(op.key) : op.value;
            m_log->Row(sequence, client, request.header.txnId, stale ? "abort" : "commit", i,
                       static_cast<int>(op.type), op.key, value, nowNs);
        }
    }
    stale ? ++m_counters.aborts : ++m_counters.commits;
    Message response;
    response.header = request.header;
    response.header.response = true;
    response.header.fromSwitch = false;
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
