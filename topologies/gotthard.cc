#include "topologies/register.h"
#include "topologies/wan.h"

#include <cmath>
#include <string>

namespace incsim
{
namespace
{

/// A client site's switch has a port per client and one towards its G switch, and a switch
/// addresses ports 0-254 (World checks it for every switch).
constexpr int64_t kMaxClientsPerSite = 254;

/// Gotthard's Fig. 3 (layout "single": clients at C, the switch G, the store at S) or Fig. 4
/// (layout "two-edge": client groups at C1 and C2 behind edge switches G1 and G2, whose paths
/// meet at the middle switch S, collocated with the store). One way, clients to a G switch
/// is d_cs = delta * RTT/2 and a G switch to the store d_ss = RTT/2 - d_cs.
enum class Layout
{
    Single,
    TwoEdge
};

const Choices<Layout>&
LayoutChoices()
{
    static const Choices<Layout> choices{{"single", Layout::Single}, {"two-edge", Layout::TwoEdge}};
    return choices;
}

Topology
BuildGotthard(const ParamView& params, const LinkParams& link)
{
    const int64_t halfRtt = params.DurationNs("rtt") / 2;
    const auto clientToSwitch =
        static_cast<int64_t>(std::llround(params.Number("delta") * static_cast<double>(halfRtt)));
    const int64_t switchToStore = halfRtt - clientToSwitch;
    const auto clients = static_cast<uint32_t>(params.Int("clients"));

    WanLayout layout;
    layout.siteLinkDelayNs = 0;
    const auto connect = [&layout](size_t a, size_t b, int64_t delayNs) {
        layout.links.emplace_back(a, b);
        layout.oneWayNs[a][b] = delayNs;
        layout.oneWayNs[b][a] = delayNs;
    };
    if (params.Choice("layout", LayoutChoices()) == Layout::Single)
    {
        layout.sites = {"C", "G", "S"};
        layout.hostsAt = {clients, 0, 1};
        layout.oneWayNs.assign(3, std::vector<int64_t>(3, 0));
        connect(0, 1, clientToSwitch);
        connect(1, 2, switchToStore);
    }
    else
    {
        layout.sites = {"C1", "C2", "G1", "G2", "S"};
        layout.hostsAt = {clients, clients, 0, 0, 1};
        layout.oneWayNs.assign(5, std::vector<int64_t>(5, 0));
        connect(0, 2, clientToSwitch);
        connect(1, 3, clientToSwitch);
        connect(2, 4, switchToStore);
        connect(3, 4, switchToStore);
    }
    return BuildWanLayout(layout, link);
}

} // namespace

TopologyGenerator
GotthardGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "Gotthard's geo-distributed settings, built as wan sites (route with \"delay\" metric). "
        "single (Fig. 3): clients C-h{i} at site C, the switch G, the store S-h0 at site S. "
        "two-edge (Fig. 4): client groups C1-h{i} and C2-h{i} behind edge switches G1 and G2, "
        "joined at the middle switch S collocated with the store S-h0. Clients to a G switch "
        "take delta * RTT/2 one way, a G switch to S the rest of RTT/2; hosts sit at their "
        "site's switch with no delay.";
    generator.params = [] {
        return Spec::Object()
            .Field("layout", Spec::Enum(LayoutChoices()),
                   "single switch (Fig. 3) or two edge switches and a middle one (Fig. 4)",
                   "single")
            .Field("rtt", Spec::Duration().Min(2), "round trip between clients and the store",
                   "100ms")
            .Field("delta", Spec::Number().Min(0).Max(1),
                   "d_cs / (d_cs + d_ss): 0 puts the switch at the clients, 1 at the store", 0.2)
            .Field("clients", Spec::Integer().Min(1).Max(kMaxClientsPerSite),
                   "clients (two-edge: in each group); at most 254, since a site's clients "
                   "hang off one switch, whose ports (one per client, one on to G) must stay "
                   "below the switch CPU's port, 255",
                   8);
    };
    generator.build = BuildGotthard;
    return generator;
}

} // namespace incsim
