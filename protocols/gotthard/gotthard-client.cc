#include "protocols/gotthard/gotthard-client.h"

#include "protocols/gotthard/gotthard-history.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace incsim::gotthard
{

ns3::TypeId
GotthardClient::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::GotthardClient")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<GotthardClient>();
    return tid;
}

void
GotthardClient::Configure(uint32_t clientIndex, const ClientConfig& config,
                          const txn::Workload* workload, Rng rng, ClientStats* stats,
                          CsvWriter* log)
{
    m_clientIndex = clientIndex;
    m_config = config;
    m_workload = workload;
    m_rng = rng;
    m_stats = stats;
    m_log = log;
}

void
GotthardClient::Start()
{
    ScheduleBegin(m_config.startPs - NowPs());
}

void
GotthardClient::ScheduleBegin(int64_t delayPs)
{
    m_begin.Cancel();
    m_begin = ns3::Simulator::Schedule(ns3::PicoSeconds(std::max<int64_t>(0, delayPs)),
                                       &GotthardClient::BeginTransaction, this);
}

void
GotthardClient::DoCrash()
{
    m_stats->abandoned += m_inTransaction ? 1 : 0;
    m_inTransaction = false;
    m_waiting = false;
    m_timer.Cancel();
    m_begin.Cancel();
    m_cache = ValueCache();
    m_reply = Reassembly();
}

void
GotthardClient::DoRecover()
{
    ScheduleBegin(m_config.startPs - NowPs());
}

void
GotthardClient::BeginTransaction()
{
    if (NowPs() >= m_config.stopPs || !Host().IsUp())
    {
        return;
    }
    m_workload->Next(m_clientIndex, m_rng, m_txn);
    m_inTransaction = true;
    ++m_txnIndex;
    m_beganPs = NowPs();
    SendAttempt();
}

void
GotthardClient::SendAttempt()
{
    Message request;
    m_txnId = TxnId(m_clientIndex, m_attempts++);
    request.header.txnId = m_txnId;
    request.header.status = Status::First;
    m_accesses.clear();
    m_workload->Execute(m_txn, m_cache, m_accesses);
    request.ops.reserve(m_accesses.size());
    for (const txn::Access& access : m_accesses)
    {
        if (access.key > UINT32_MAX)
        {
            // Gotthard's workloads stay in one warehouse and 2^30 keys (the scenario schema).
            throw std::logic_error("gotthard: a workload key wider than the wire's 32 bits");
        }
        request.ops.push_back(Op{ToOpType(access.type), static_cast<uint32_t>(access.key),
                                 access.value});
    }
    request.EncodeFragments(m_packets);
    Log(txn::Event::Send, request);
    m_reply = Reassembly();
    ++m_stats->attempts;
    m_waiting = true;
    m_retransmitted = false;
    SendPackets();
}

void
GotthardClient::SendPackets()
{
    for (const std::vector<uint8_t>& packet : m_packets)
    {
        Send(m_config.storeHost, kStorePort, packet.data(), static_cast<uint32_t>(packet.size()),
             static_cast<uint32_t>(packet.size()));
    }
    m_timer.Cancel();
    m_timer = ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.timeoutPs),
                                       &GotthardClient::TimedOut, this);
}

void
GotthardClient::TimedOut()
{
    if (!m_waiting)
    {
        return;
    }
    ++m_stats->timeouts;
    for (std::vector<uint8_t>& packet : m_packets)
    {
        packet[Header::kStatusByte] = static_cast<uint8_t>(Status::Retransmit);
    }
    m_retransmitted = true;
    SendPackets();
}

void
GotthardClient::Learn(const Message& response)
{
    for (const Op& op : response.ops)
    {
        // A switch's abort corrects its compares only; its other operations are the request's.
        if (!response.header.fromSwitch || op.type == OpType::Compare ||
            response.header.status == Status::Ok)
        {
            m_cache.Set(op.key, op.value);
        }
    }
}

void
GotthardClient::DoReceive(const Datagram& datagram)
{
    std::optional<Message> response = Message::Decode(datagram.bytes, datagram.materialised);
    if (!response || !response->header.response || !m_waiting ||
        response->header.txnId != m_txnId)
    {
        return;  // malformed, or the answer to an attempt already settled
    }
    if (response->header.fromSwitch && m_retransmitted)
    {
        // The switch judged the first copy, but a retransmitted one may commit at the store.
        ++m_stats->switchAnswersIgnored;
        return;
    }
    if (response->header.fragCount == 1)
    {
        Settle(*response);
    }
    else if (m_reply.Add(std::move(*response)) == Reassembly::Result::Complete)
    {
        Settle(m_reply.Take());
    }
}

void
GotthardClient::Log(txn::Event event, const Message& message)
{
    if (!m_log)
    {
        return;
    }
    const txn::By by = event == txn::Event::Send ? txn::By::Client
                       : message.header.fromSwitch ? txn::By::Network
                                                   : txn::By::Server;
    ToHistory(message.ops, m_historyOps);
    txn::LogClient(*m_log, HostIndex(), message.header.txnId, m_txnIndex,
                   m_workload->KindNames()[m_txn.kind], event, by, m_historyOps,
                   NowPs() / kPsPerNs);
}

void
GotthardClient::Settle(const Message& response)
{
    m_waiting = false;
    m_timer.Cancel();
    const Header& h = response.header;
    const bool ok = h.status == Status::Ok;
    Log(ok ? txn::Event::Commit : txn::Event::Abort, response);
    Learn(response);
    if (!ok)
    {
        h.fromSwitch ? ++m_stats->switchAborts : ++m_stats->storeAborts;
        Charge(MessageCostPs(), [this] { SendAttempt(); });
        return;
    }
    m_inTransaction = false;
    m_stats->committedWrites +=
        std::any_of(response.ops.begin(), response.ops.end(),
                    [](const Op& op) { return op.type == OpType::Write; })
            ? 1
            : 0;
    m_stats->switchAnswers += h.fromSwitch ? 1 : 0;
    KindStats& kind = m_stats->kinds[m_txn.kind];
    ++kind.committed;
    kind.committedAfterStop += NowPs() >= m_config.stopPs ? 1 : 0;
    kind.latenciesPs.push_back(NowPs() - m_beganPs);
    Charge(MessageCostPs(), [this] { ScheduleBegin(m_config.thinkPs); });
}

} // namespace incsim::gotthard
