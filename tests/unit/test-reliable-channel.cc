// ReliableChannel (sim/host/reliable-channel.h): once, in order, over a network that loses,
// duplicates and reorders segments and acknowledgements.

#include "test-support.h"

#include "sim/core/rng.h"
#include "sim/core/sim-time.h"
#include "sim/host/reliable-channel.h"

#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

struct SimulatorGuard
{
    ~SimulatorGuard() { ns3::Simulator::Destroy(); }
};

struct Payload
{
    uint64_t id = 0;
    std::vector<uint8_t> bytes;
};

/// A channel over a fake network: each segment and each acknowledgement is lost with
/// probability `loss`, sent twice with probability `duplicate`, and delayed 1..`jitterNs` ns
/// (so segments overtake each other).
struct Fixture
{
    Fixture(double loss, double duplicate, int64_t jitterNs, uint64_t seed,
            const RetransmitTimeout& timeout = RetransmitTimeout::Fixed(Us(5)))
        : rng(seed)
    {
        auto hooks = ReliableChannel<Payload>::Hooks{};
        hooks.transmit = [this, loss, duplicate, jitterNs](uint32_t seq, const Payload&,
                                                           uint64_t stamp) {
            Carry(loss, duplicate, jitterNs,
                  [this, seq, stamp] { channel->ReceiveData(seq, stamp); });
        };
        hooks.transmitAck = [this, loss, duplicate, jitterNs](uint32_t next, bool error,
                                                              uint64_t echo) {
            Carry(loss, duplicate, jitterNs,
                  [this, next, error, echo] { channel->ReceiveAck(next, error, echo); });
        };
        hooks.deliver = [this](const Payload& p) {
            delivered.push_back(p.id);
            REQUIRE(p.bytes.size() == p.id % 7);
        };
        channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), timeout);
    }

    void Carry(double loss, double duplicate, int64_t jitterNs, std::function<void()> arrive)
    {
        if (rng.Uniform() < loss)
        {
            return;
        }
        const int copies = rng.Uniform() < duplicate ? 2 : 1;
        for (int c = 0; c < copies; ++c)
        {
            const int64_t delayNs = 1 + static_cast<int64_t>(rng.Uniform() * jitterNs);
            ns3::Simulator::Schedule(Ps(delayNs * kPsPerNs), arrive);
        }
    }

    Rng rng;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<uint64_t> delivered;
};

} // namespace

TEST_CASE("ReliableChannel delivers every message once and in order", "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    const uint64_t seed = GENERATE(1, 2, 3, 4, 5);
    struct Case
    {
        double loss, duplicate;
        int64_t jitterNs;
    };
    const Case c = GENERATE(Case{0, 0, 1}, Case{0.2, 0, 1}, Case{0, 0.3, 2000},
                            Case{0.3, 0.3, 2000}, Case{0.01, 0.01, 500});
    const RetransmitTimeout timeout =
        GENERATE(RetransmitTimeout::Fixed(Us(5)), RetransmitTimeout::Adaptive(Us(5), Us(100)));
    Fixture f(c.loss, c.duplicate, c.jitterNs, seed, timeout);
    const uint64_t n = 300;
    // Sends in bursts, some while earlier ones are still unacknowledged.
    for (uint64_t i = 0; i < n; ++i)
    {
        ns3::Simulator::Schedule(Ps(static_cast<int64_t>(i / 10) * Us(3)), [&f, i] {
            Payload p;
            p.id = i;
            p.bytes.assign(i % 7, 0xab);
            f.channel->Send(p);
        });
    }
    ns3::Simulator::Stop(Ps(Us(50000)));
    ns3::Simulator::Run();
    REQUIRE(f.delivered.size() == n);
    for (uint64_t i = 0; i < n; ++i)
    {
        REQUIRE(f.delivered[i] == i);
    }
    REQUIRE(f.channel->InFlight() == 0);
    const auto& counters = f.channel->GetCounters();
    CHECK(counters.sent == n);
    CHECK(counters.delivered == n);
    if (c.loss > 0)
    {
        CHECK(counters.retransmitted > 0);
    }
    if (c.loss == 0 && c.duplicate == 0)
    {
        CHECK(counters.retransmitted == 0);
        CHECK(counters.duplicates == 0);
    }
    if (c.duplicate > 0)
    {
        CHECK(counters.duplicates > 0);
    }
}

TEST_CASE("ReliableChannel retransmits only after the timeout and stops once acknowledged",
          "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    std::vector<int64_t> sentAt;
    bool dropFirst = true;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<uint64_t> delivered;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t stamp) {
        sentAt.push_back(NowPs());
        if (dropFirst)
        {
            dropFirst = false;
            return;
        }
        ns3::Simulator::Schedule(Ps(Us(1)), [&, seq, stamp] { channel->ReceiveData(seq, stamp); });
    };
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ns3::Simulator::Schedule(Ps(Us(1)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(10));
    Payload p;
    p.id = 42;
    channel->Send(p);
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    REQUIRE(delivered == std::vector<uint64_t>{42});
    // The lost first copy, then one retransmission at the timeout, and none after the ACK.
    REQUIRE(sentAt == std::vector<int64_t>{0, Us(10)});
    REQUIRE(channel->InFlight() == 0);
}

TEST_CASE("ReliableChannel resends a lost segment when a later one is acknowledged, before "
          "the timeout, once",
          "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    std::vector<std::pair<uint32_t, int64_t>> sent;
    bool dropFirst = true;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<uint64_t> delivered;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t stamp) {
        sent.emplace_back(seq, NowPs());
        if (dropFirst)
        {
            dropFirst = false;
            return;
        }
        ns3::Simulator::Schedule(Ps(Us(1)), [&, seq, stamp] { channel->ReceiveData(seq, stamp); });
    };
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ns3::Simulator::Schedule(Ps(Us(1)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(100));
    for (uint64_t id = 0; id < 3; ++id)
    {
        Payload p;
        p.id = id;
        channel->Send(p);
    }
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    REQUIRE(delivered == std::vector<uint64_t>{0, 1, 2});
    // Segment 0 is lost; 1 and 2 arrive at 1 us and are acknowledged with "expecting 0",
    // which reaches the sender at 2 us: it resends 0, 1, 2 then, once (the second repeat does
    // not start another round), long before the 100 us timer.
    using Sent = std::vector<std::pair<uint32_t, int64_t>>;
    REQUIRE(sent == Sent{{0, 0}, {1, 0}, {2, 0}, {0, Us(2)}, {1, Us(2)}, {2, Us(2)}});
    REQUIRE(channel->GetCounters().fastRetransmits == 1);
    REQUIRE(channel->InFlight() == 0);
}

TEST_CASE("A closed ReliableChannel sends and resends nothing, but delivers what is on the wire",
          "[reliable-channel]")
{
    // A crashed sender's connection (or one to a server known to have failed) is closed:
    // without it, the sender retried a dead peer every timeout until the end of the run.
    InitIncsim();
    SimulatorGuard guard;
    std::vector<int64_t> sentAt;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<uint64_t> delivered;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t stamp) {
        sentAt.push_back(NowPs());
        if (seq == 0)
        {
            return;  // lost: nothing resends it once closed
        }
        ns3::Simulator::Schedule(Ps(Us(1)), [&, seq, stamp] { channel->ReceiveData(seq, stamp); });
    };
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ns3::Simulator::Schedule(Ps(Us(1)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(10));
    Payload p;
    p.id = 1;
    channel->Send(p);  // seq 0, lost
    ns3::Simulator::Schedule(Ps(Us(2)), [&] { channel->Close(); });
    ns3::Simulator::Schedule(Ps(Us(3)), [&] {
        Payload later;
        later.id = 2;
        channel->Send(later);  // dropped: closed
    });
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    CHECK(channel->Closed());
    CHECK(sentAt == std::vector<int64_t>{0});
    CHECK(delivered.empty());
}

TEST_CASE("A ReliableChannel closed with a segment on the wire still delivers it",
          "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<uint64_t> delivered;
    uint32_t acks = 0;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t stamp) {
        ns3::Simulator::Schedule(Ps(Us(5)), [&, seq, stamp] { channel->ReceiveData(seq, stamp); });
    };
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ++acks;
        ns3::Simulator::Schedule(Ps(Us(1)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(10));
    Payload p;
    p.id = 7;
    channel->Send(p);
    ns3::Simulator::Schedule(Ps(Us(1)), [&] { channel->Close(); });
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    CHECK(delivered == std::vector<uint64_t>{7});
    CHECK(acks == 1);
}

TEST_CASE("A ReliableChannel whose path is broken reports a stall after its retry rounds, and "
          "segments forwarded another way are delivered once, in order, and acknowledged",
          "[reliable-channel][forwarding]")
{
    InitIncsim();
    SimulatorGuard guard;
    // Every data segment is lost (a broken path); acknowledgements would get through.
    std::vector<int64_t> stalledAt;
    std::vector<uint64_t> delivered;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [](uint32_t, const Payload&, uint64_t) {};
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ns3::Simulator::Schedule(Ps(Us(1)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    hooks.stalled = [&] {
        stalledAt.push_back(NowPs());
        if (stalledAt.size() == 2)
        {
            // Forwarded: three segments, one of them twice; the receiver's next expected
            // goes back as the acknowledgement.
            const uint32_t from = channel->Base();
            const uint32_t to = channel->End();
            REQUIRE(to - from == 3);
            REQUIRE(channel->ReceiveForwarded(from, from + 2) == from + 2);
            const uint32_t next = channel->ReceiveForwarded(from, to);
            REQUIRE(next == to);
            channel->ReceiveAck(next, false, ReliableChannel<Payload>::kNoStamp);
        }
    };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(10), 3);
    for (uint64_t id = 1; id <= 3; ++id)
    {
        Payload p;
        p.id = id;
        channel->Send(p);
    }
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    // Three timer rounds each (10 us apart), then nothing once acknowledged.
    REQUIRE(stalledAt == std::vector<int64_t>{Us(30), Us(60)});
    REQUIRE(delivered == std::vector<uint64_t>{1, 2, 3});
    REQUIRE(channel->InFlight() == 0);
    REQUIRE(channel->GetCounters().forwarded == 3);
    REQUIRE(channel->GetCounters().retransmitted == 6 * 3);
}

TEST_CASE("A ReliableChannel whose segments are only delayed past its timeout reads the "
          "duplicates' acknowledgements as no sequence error",
          "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    // A queue makes the round trip 80 us against a timeout of 10 us (1Pipe at 512 saturated
    // processes: queues of hundreds of us against 30 us); nothing is lost. Every timeout
    // sends the window again while the first copies wait, and the receiver acknowledges each
    // duplicate with the next it expects. Were that read as a loss (a repeated ACK naming
    // the oldest), each would resend the window once more: a go-back-N storm.
    std::unique_ptr<ReliableChannel<Payload>> channel;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t stamp) {
        ns3::Simulator::Schedule(Ps(Us(40)), [&, seq, stamp] { channel->ReceiveData(seq, stamp); });
    };
    hooks.transmitAck = [&](uint32_t next, bool error, uint64_t echo) {
        ns3::Simulator::Schedule(Ps(Us(40)),
                                 [&, next, error, echo] { channel->ReceiveAck(next, error, echo); });
    };
    std::vector<uint64_t> delivered;
    hooks.deliver = [&](const Payload& p) { delivered.push_back(p.id); };
    channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), Us(10));
    const uint64_t n = 50;
    for (uint64_t i = 0; i < n; ++i)
    {
        ns3::Simulator::Schedule(Ps(Us(20) * static_cast<int64_t>(i)), [&channel, i] {
            Payload p;
            p.id = i;
            channel->Send(p);
        });
    }
    ns3::Simulator::Stop(Ps(Us(5000)));
    ns3::Simulator::Run();
    REQUIRE(delivered.size() == n);
    REQUIRE(channel->InFlight() == 0);
    const auto& counters = channel->GetCounters();
    CHECK(counters.duplicates > 0);
    CHECK(counters.outOfOrder == 0);
    CHECK(counters.fastRetransmits == 0);
}

namespace
{
/// A channel over a path of `oneWayUs` each way that loses the first k copies of a sequence
/// number that `lose` lists k times; a message every `spacingUs` for `messages` messages (0
/// apart: all at once). Records when each segment was sent.
struct LongPath
{
    LongPath(const RetransmitTimeout& timeout, int64_t oneWayUs, int64_t spacingUs,
             uint64_t messages, std::vector<uint32_t> lose = {})
    {
        ReliableChannel<Payload>::Hooks hooks;
        hooks.transmit = [this, oneWayUs, lose](uint32_t seq, const Payload&, uint64_t stamp) {
            sentAt.emplace_back(seq, NowPs());
            if (++copies[seq] <= static_cast<size_t>(std::count(lose.begin(), lose.end(), seq)))
            {
                return;
            }
            ns3::Simulator::Schedule(Ps(Us(oneWayUs)), [this, seq, stamp] {
                channel->ReceiveData(seq, stamp);
            });
        };
        hooks.transmitAck = [this, oneWayUs](uint32_t next, bool error, uint64_t echo) {
            ns3::Simulator::Schedule(Ps(Us(oneWayUs)), [this, next, error, echo] {
                channel->ReceiveAck(next, error, echo);
            });
        };
        hooks.deliver = [this](const Payload& p) { delivered.push_back(p.id); };
        channel = std::make_unique<ReliableChannel<Payload>>(std::move(hooks), timeout);
        for (uint64_t i = 0; i < messages; ++i)
        {
            ns3::Simulator::Schedule(Ps(Us(spacingUs) * static_cast<int64_t>(i)), [this, i] {
                Payload p;
                p.id = i;
                channel->Send(p);
            });
        }
    }

    SimulatorGuard guard;
    std::unique_ptr<ReliableChannel<Payload>> channel;
    std::vector<std::pair<uint32_t, int64_t>> sentAt; ///< (sequence number, when)
    std::map<uint32_t, size_t> copies; ///< copies sent, by sequence number
    std::vector<uint64_t> delivered;
};
} // namespace

TEST_CASE("An adaptive ReliableChannel waits its largest timeout for a first round trip, "
          "learns one longer than its least timeout from echoed send times and does not time "
          "out a segment that is only queued",
          "[reliable-channel]")
{
    InitIncsim();
    // A queue makes the round trip 80 us against a least timeout of 10 us (1Pipe at 512
    // saturated processes: queues of hundreds of us against 30 us). A message every 20 us,
    // so each is sent before the previous is acknowledged.
    const uint64_t n = 50;
    ReliableChannel<Payload>::Counters fixed;
    {
        LongPath path(RetransmitTimeout::Fixed(Us(10)), 40, 20, n);
        ns3::Simulator::Stop(Ps(Us(5000)));
        ns3::Simulator::Run();
        REQUIRE(path.delivered.size() == n);
        fixed = path.channel->GetCounters();
    }
    LongPath path(RetransmitTimeout::Adaptive(Us(10), Us(10000)), 40, 20, n);
    ns3::Simulator::Stop(Ps(Us(5000)));
    ns3::Simulator::Run();
    REQUIRE(path.delivered.size() == n);
    REQUIRE(path.channel->InFlight() == 0);
    const auto& adaptive = path.channel->GetCounters();
    // Fixed: every timeout resends the window while its first copies are on the way.
    CHECK(fixed.retransmitted > 2 * n);
    // Adaptive: before the first sample (80 us) the timeout is the largest, so nothing goes
    // twice (a guess of 10 us doubled at each timeout resent the oldest at 10, 30 and 70 us);
    // the samples after it keep the timeout and the probe above the round trip.
    CHECK(adaptive.timeouts == 0);
    CHECK(adaptive.probes == 0);
    CHECK(adaptive.retransmitted == 0);
    CHECK(path.channel->SrttPs() == Us(80));
    CHECK(path.channel->RtoPs() >= Us(80));
    CHECK(path.channel->RtoPs() <= Us(160));
}

TEST_CASE("An adaptive ReliableChannel probes a lost tail two round trips after its send",
          "[reliable-channel]")
{
    InitIncsim();
    // Round trip 2 us, least timeout 10 us. Message 0 at 0 (its ACK at 2 us is the first
    // sample: SRTT 2, RTO 10), 1 at 5 us and 2 at 10 us, whose first copies are lost, and
    // nothing after them to bring a sequence error.
    LongPath path(RetransmitTimeout::Adaptive(Us(10), Us(10000)), 1, 5, 3, {1, 2});
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    CHECK(path.delivered == std::vector<uint64_t>{0, 1, 2});
    // 1 is probed at 9 us (2 SRTT after its send, not the 15 us timeout); its ACK at 11 us
    // moves, and 2, sent at 10 us, is probed 2 SRTT after its send.
    const std::vector<std::pair<uint32_t, int64_t>> expected{
        {0, 0}, {1, Us(5)}, {1, Us(9)}, {2, Us(10)}, {2, Us(14)}};
    CHECK(path.sentAt == expected);
    const auto& counters = path.channel->GetCounters();
    CHECK(counters.probes == 2);
    CHECK(counters.timeouts == 0);
    CHECK(path.channel->InFlight() == 0);
}

TEST_CASE("An adaptive ReliableChannel probes once, then resends the window every timeout "
          "and reports a stall after its retry rounds",
          "[reliable-channel][forwarding]")
{
    InitIncsim();
    SimulatorGuard guard;
    // The receiver is gone: nothing is acknowledged. The sender measured 2 us before
    // (SRTT 2, RTTVAR 1: RTO 10 us, the least).
    std::vector<std::pair<uint32_t, int64_t>> sentAt;
    std::vector<int64_t> stalledAt;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t) {
        sentAt.emplace_back(seq, NowPs());
    };
    hooks.transmitAck = [](uint32_t, bool, uint64_t) {};
    hooks.deliver = [](const Payload&) {};
    hooks.stalled = [&] { stalledAt.push_back(NowPs()); };
    RttEstimate sender;
    sender.Sample(Us(2));
    ReliableChannel<Payload> channel(std::move(hooks),
                                     RetransmitTimeout::Adaptive(Us(10), Us(40)), 3, &sender);
    channel.Send(Payload{});
    channel.Send(Payload{});
    ns3::Simulator::Stop(Ps(Us(45)));
    ns3::Simulator::Run();
    // Both at 0, the newest probed at 4 us, then the window every 10 us (no backoff once a
    // round trip is known: every acknowledgement would correct it).
    const std::vector<std::pair<uint32_t, int64_t>> expected{
        {0, 0},       {1, 0},       {1, Us(4)},   {0, Us(10)}, {1, Us(10)}, {0, Us(20)},
        {1, Us(20)},  {0, Us(30)},  {1, Us(30)},  {0, Us(40)}, {1, Us(40)}};
    CHECK(sentAt == expected);
    CHECK(stalledAt == std::vector<int64_t>{Us(30)});
    CHECK(channel.GetCounters().timeouts == 4);
    CHECK(channel.GetCounters().probes == 1);
}

TEST_CASE("An adaptive ReliableChannel without any round trip waits its largest timeout",
          "[reliable-channel]")
{
    InitIncsim();
    SimulatorGuard guard;
    std::vector<std::pair<uint32_t, int64_t>> sentAt;
    ReliableChannel<Payload>::Hooks hooks;
    hooks.transmit = [&](uint32_t seq, const Payload&, uint64_t) {
        sentAt.emplace_back(seq, NowPs());
    };
    hooks.transmitAck = [](uint32_t, bool, uint64_t) {};
    hooks.deliver = [](const Payload&) {};
    ReliableChannel<Payload> channel(std::move(hooks),
                                     RetransmitTimeout::Adaptive(Us(10), Us(40)));
    channel.Send(Payload{});
    channel.Send(Payload{});
    ns3::Simulator::Stop(Ps(Us(45)));
    ns3::Simulator::Run();
    const std::vector<std::pair<uint32_t, int64_t>> expected{
        {0, 0}, {1, 0}, {0, Us(40)}, {1, Us(40)}};
    CHECK(sentAt == expected);
    CHECK(channel.GetCounters().probes == 0);
}

TEST_CASE("An adaptive ReliableChannel resends an oldest lost again at the next sequence error "
          "that a segment sent after its copy brings",
          "[reliable-channel]")
{
    InitIncsim();
    // Four segments at once over 1 us each way; the first two copies of 0 are lost.
    LongPath path(RetransmitTimeout::Adaptive(Us(10), Us(10000)), 1, 0, 4, {0, 0});
    ns3::Simulator::Stop(Ps(Us(1000)));
    ns3::Simulator::Run();
    CHECK(path.delivered == std::vector<uint64_t>{0, 1, 2, 3});
    // 1-3 arrive at 1 us out of order; the first sequence error (at 2 us) resends the window,
    // the other two answer copies sent before that and resend nothing; 0's copy is lost
    // again, and the errors its window's 1-3 bring at 4 us resend it (the once-per-oldest rule
    // waited for the timeout, 10 us after the 2 us copy).
    CHECK(path.sentAt.size() == 12);
    CHECK(path.sentAt.back() == std::pair<uint32_t, int64_t>{3, Us(4)});
    const auto& counters = path.channel->GetCounters();
    CHECK(counters.fastRetransmits == 2);
    CHECK(counters.timeouts == 0);
    CHECK(path.channel->InFlight() == 0);
}
