#include "protocols/onepipe/onepipe-host.h"

#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe
{

namespace
{
/// Beacon intervals after a join beyond which the next join starts a new return.
constexpr int64_t kJoinMemoryIntervals = 10;
} // namespace

NS_OBJECT_ENSURE_REGISTERED(OnePipeHost);

ns3::TypeId
OnePipeHost::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::onepipe::OnePipeHost")
                                 .SetParent<ns3::Object>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<OnePipeHost>();
    return tid;
}

OnePipeHost::OnePipeHost() = default;
OnePipeHost::~OnePipeHost()
{
    m_beaconEvent.Cancel();
    m_commitEvent.Cancel();
}

void
OnePipeHost::Configure(HostNode& host, const HostConfig& config, Stats* stats, Rng lossRng)
{
    m_host = &host;
    m_config = config;
    m_stats = stats;
    m_lossRng = lossRng;
    m_clock = TimestampClock(&host.Clock(), config.logicalClock, config.clockGainPerNs);
    if (config.ordered)
    {
        host.SetEtherTypeHandler(kEtherType,
                                 [this](const Frame& frame, uint32_t) { ReceiveBeacon(frame); });
    }
}

void
OnePipeHost::Start()
{
    if (m_config.ordered)
    {
        ScheduleBeacon();
    }
}

void
OnePipeHost::ScheduleBeacon()
{
    // Synchronized beacons: at the next multiple of the interval on the timestamp clock, so
    // that every host's round-k beacon carries (about) k * interval.
    const uint64_t interval = static_cast<uint64_t>(m_config.beaconIntervalNs);
    m_nextBeaconTs = (m_clock.Now() / interval + 1) * interval;
    WaitForBeaconTime();
}

void
OnePipeHost::WaitForBeaconTime()
{
    m_beaconEvent = ns3::Simulator::Schedule(
        ns3::NanoSeconds(m_clock.LocalNsUntil(m_nextBeaconTs)), &OnePipeHost::SendBeacon, this);
}

void
OnePipeHost::SendBeacon()
{
    // A logical clock whose rate fell since the wait began (or an oscillator running slow)
    // has not reached the round yet: wait for it rather than send a beacon of an old round.
    if (m_clock.Now() < m_nextBeaconTs)
    {
        WaitForBeaconTime();
        return;
    }
    if (m_host->IsUp())
    {
        ProcessBeaconsToNic(m_nextBeaconTs);
        SendBeaconNow();
    }
    ScheduleBeacon();
}

void
OnePipeHost::ProcessBeaconsToNic(uint64_t round)
{
    if (m_config.receiveLoss <= 0)
    {
        return;
    }
    m_nicViews.resize(m_processes.size());
    // Only a process whose beacon of this round was lost holds the host back: the others'
    // timestamps are at or above the host's clock, as they were without loss.
    m_nicBarrier = UINT64_MAX;
    m_nicCommit = UINT64_MAX;
    for (size_t p = 0; p < m_processes.size(); ++p)
    {
        NicView& view = m_nicViews[p];
        if (LostOnReceive())
        {
            m_nicBarrier = std::min(m_nicBarrier, view.barrier);
            m_nicCommit = std::min(m_nicCommit, view.commit);
        }
        else
        {
            view.barrier = round;
            view.commit = std::min(m_clock.Now(), m_processes[p]->OldestUnacked());
        }
    }
}

bool
OnePipeHost::SendBeaconNow()
{
    Header header;
    header.messageTs = Timestamp();
    header.barrier = LinkBarrier(header.messageTs);
    if (m_config.reliable)
    {
        header.commitBarrier = CommitBarrier();
        m_commitSent = std::max(m_commitSent, header.commitBarrier);
    }
    header.opcode = Opcode::Beacon;
    FramePtr frame = MakeBeaconFrame(NodeMac(m_host->NodeId()), header, m_config.priority);
    if (!m_host->SendFrame(0, std::move(frame)))
    {
        return false;
    }
    ++m_stats->hostBeacons;
    ++m_beaconsSent;
    return true;
}

uint64_t
OnePipeHost::CommitBarrier()
{
    // Exclusive, like the best-effort barrier: every later scattering takes a timestamp at or
    // above the clock.
    uint64_t commit = m_clock.Now();
    for (const OnePipeEndpoint* process : m_processes)
    {
        commit = std::min(commit, process->OldestUnacked());
    }
    return std::min(commit, m_nicCommit);
}

void
OnePipeHost::CommitMayAdvance()
{
    if (!m_config.ordered || m_commitEvent.IsRunning())
    {
        return;
    }
    const int64_t wait = m_lastCommitPs + m_config.commitIntervalPs - NowPs();
    if (m_lastCommitPs > 0 && wait > 0)
    {
        m_commitEvent = ns3::Simulator::Schedule(Ps(wait), &OnePipeHost::SendCommit, this);
        return;
    }
    SendCommit();
}

void
OnePipeHost::SendCommit()
{
    if (!m_host->IsUp() || CommitBarrier() <= m_commitSent)
    {
        return;
    }
    if (SendBeaconNow())
    {
        ++m_stats->commitMessages;
        m_lastCommitPs = NowPs();
    }
}

bool
OnePipeHost::LostOnReceive()
{
    if (m_config.receiveLoss <= 0 || !m_lossRng.Bernoulli(m_config.receiveLoss))
    {
        return false;
    }
    ++m_stats->receiveDrops;
    return true;
}

void
OnePipeHost::ReceiveBeacon(const Frame& frame)
{
    if (frame.length < kEthernetHeaderBytes + Header::kBytes || LostOnReceive())
    {
        return;
    }
    const Header header = Header::Read(frame.data + kEthernetHeaderBytes);
    if (header.flags & kFlagJoin)
    {
        Join(header.messageTs);
    }
    ObserveBarrier(header.barrier);
    if (m_config.reliable)
    {
        ObserveCommit(header.commitBarrier);
    }
}

void
OnePipeHost::Join(uint64_t ts)
{
    // The switch's high-water mark moves on while this host's next beacon travels to it (and
    // the join may come from a switch further up), so the clock goes a margin above the join
    // timestamp: one beacon interval at first, doubled whenever a join overtakes the clock
    // the last one set (the margin was short of the round trip). A join long after the last
    // one (another return) starts over.
    const int64_t interval = m_config.beaconIntervalNs;
    if (m_joinedAt == 0 || NowPs() - m_lastJoinPs > kJoinMemoryIntervals * interval * kPsPerNs)
    {
        m_joinMarginNs = interval;
        m_joinedAt = 0;
    }
    m_lastJoinPs = NowPs();
    if (m_joinedAt != 0)
    {
        if (ts < m_joinedAt)
        {
            return; // the clock is above it; its next beacon is on the way
        }
        m_joinMarginNs *= 2;
    }
    m_joinedAt = ts + static_cast<uint64_t>(m_joinMarginNs);
    if (m_clock.Join(m_joinedAt))
    {
        ++m_stats->clockJoins;
    }
}

void
OnePipeHost::ObserveBarrier(uint64_t barrier)
{
    if (barrier <= m_barrier)
    {
        return;
    }
    m_barrier = barrier;
    // Lamport's rule (TimestampClock): the clock passes the barrier before anything below it
    // is delivered.
    if (m_clock.AdvanceTo(barrier))
    {
        ++m_stats->clockRaises;
    }
    if (!m_config.reliable || m_config.deliverOnBarrier)
    {
        DeliverAll(barrier);
    }
}

void
OnePipeHost::ObserveCommit(uint64_t commit)
{
    if (commit <= m_commit)
    {
        return;
    }
    m_commit = commit;
    if (m_clock.AdvanceTo(commit))
    {
        ++m_stats->clockRaises;
    }
    if (!m_config.deliverOnBarrier)
    {
        DeliverAll(commit);
    }
}

void
OnePipeHost::DeliverAll(uint64_t barrier)
{
    for (OnePipeEndpoint* process : m_processes)
    {
        process->DeliverBelow(barrier);
    }
}

void
OnePipeHost::DoDispose()
{
    m_beaconEvent.Cancel();
    m_commitEvent.Cancel();
    m_processes.clear();
    m_host = nullptr;
    ns3::Object::DoDispose();
}

} // namespace incsim::onepipe
