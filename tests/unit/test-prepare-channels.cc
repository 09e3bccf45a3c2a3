// PrepareChannels (protocols/onepipe/prepare-channels.h): a reliable-1Pipe sender's channels
// and the round-trip estimate they share.

#include "test-support.h"

#include "protocols/onepipe/prepare-channels.h"
#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace incsim;
using namespace incsim::onepipe;
using namespace incsim::test;

TEST_CASE("A sender's first round trip re-arms its channels that still wait the largest "
          "timeout, so a first segment lost before it costs about that round trip",
          "[reliable][reliable-channel]")
{
    InitIncsim();
    struct Guard
    {
        ~Guard() { ns3::Simulator::Destroy(); }
    } guard;
    // Two destinations over a 1 us path each way; the first copy of destination 0's only
    // segment is lost. The sender has no round trip before destination 1's ACK at 2 us
    // (SRTT 2 us), so destination 0's timer was set to the largest timeout, 10 ms.
    std::vector<int64_t> deliveredAt(2, -1);
    bool lost = false;
    PrepareChannels* channels = nullptr;
    auto hooksFor = [&](uint32_t dst) {
        PrepareChannels::Channel::Hooks hooks;
        hooks.transmit = [&, dst](uint32_t seq, const Segment&, uint64_t stamp) {
            if (dst == 0 && !lost)
            {
                lost = true;
                return;
            }
            ns3::Simulator::Schedule(Ps(Us(1)), [&, dst, seq, stamp] {
                channels->Find(dst)->ReceiveData(seq, stamp);
            });
        };
        hooks.transmitAck = [&, dst](uint32_t next, bool error, uint64_t echo) {
            ns3::Simulator::Schedule(Ps(Us(1)), [&, dst, next, error, echo] {
                channels->ReceiveAck(dst, next, error, echo);
            });
        };
        hooks.deliver = [&, dst](const Segment&) { deliveredAt[dst] = NowPs(); };
        return hooks;
    };
    PrepareChannels prepare(hooksFor, RetransmitTimeout::Adaptive(Us(10), Us(10000)), 0);
    channels = &prepare;
    prepare.BeginScattering(1);
    Segment segment;
    segment.ts = 1;
    prepare.Send(0, segment);
    prepare.Send(1, segment);
    ns3::Simulator::Stop(Ps(Us(100)));
    ns3::Simulator::Run();
    CHECK(deliveredAt[1] == Us(1));
    // Re-armed at 2 us: the probe is due 2 SRTT after the send (4 us) and arrives at 5 us.
    CHECK(deliveredAt[0] == Us(5));
    CHECK(prepare.OldestUnacked() == PrepareChannels::kNone);
    CHECK(prepare.Totals().probes == 1);
    CHECK(prepare.Totals().timeouts == 0);
}
