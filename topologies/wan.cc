#include "topologies/wan.h"

#include "sim/core/units.h"
#include "topologies/register.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace incsim
{
namespace
{

using Matrix = std::vector<std::vector<int64_t>>;

struct Sites
{
    std::vector<std::string> names;
    Matrix oneWayNs;
};

/// Gotthard (USI TR 2016), Table 1: RTT ranges between AWS regions. The preset uses the
/// midpoint of each range, so one-way = (lo + hi) / 4 ms, a whole number of ns.
Sites
AwsGotthard()
{
    struct Range
    {
        size_t a;
        size_t b;
        int64_t loMs;
        int64_t hiMs;
    };
    enum : size_t
    {
        kCa,
        kVa,
        kEu,
        kOr,
        kJp
    };
    const Range table[] = {
        {kCa, kVa, 70, 79},
        {kCa, kEu, 143, 148},
        {kCa, kOr, 20, 22},
        {kCa, kJp, 102, 113},
        {kVa, kEu, 70, 76},
        {kVa, kOr, 66, 85},
        {kVa, kJp, 140, 153},
        {kEu, kOr, 126, 131},
        {kEu, kJp, 209, 218},
        {kOr, kJp, 89, 100},
    };
    Sites sites;
    sites.names = {"CA", "VA", "EU", "OR", "JP"};
    sites.oneWayNs.assign(sites.names.size(), std::vector<int64_t>(sites.names.size(), 0));
    for (const Range& range : table)
    {
        const int64_t oneWay = (range.loMs + range.hiMs) * 1'000'000 / 4;
        sites.oneWayNs[range.a][range.b] = oneWay;
        sites.oneWayNs[range.b][range.a] = oneWay;
    }
    return sites;
}

/// /topology/params/preset: the built-in sites by name; "none" has none.
const Choices<Sites (*)()>&
PresetChoices()
{
    static const Choices<Sites (*)()> choices{{"none", nullptr}, {"aws-gotthard", &AwsGotthard}};
    return choices;
}

/// Reads a square, symmetric, zero-diagonal matrix of durations; halves it for RTTs.
Matrix
ReadDelayMatrix(const ParamView& params, const std::string& key, size_t n, bool halve)
{
    const ParamView matrix = params.Get(key);
    if (matrix.Size() != n)
    {
        params.Fail(key,
                    "has " + std::to_string(matrix.Size()) + " rows but there are " +
                        std::to_string(n) + " sites");
    }
    Matrix values(n, std::vector<int64_t>(n, 0));
    for (size_t i = 0; i < n; ++i)
    {
        const ParamView row = matrix.At(i);
        if (row.Size() != n)
        {
            matrix.Fail(std::to_string(i),
                        "row has " + std::to_string(row.Size()) + " entries but there are " +
                            std::to_string(n) + " sites");
        }
        for (size_t j = 0; j < n; ++j)
        {
            values[i][j] = row.At(j).AsDurationNs();
        }
        if (values[i][i] != 0)
        {
            row.Fail(std::to_string(i), "the diagonal (a site to itself) must be \"0ns\"");
        }
    }
    for (size_t i = 0; i < n; ++i)
    {
        for (size_t j = i + 1; j < n; ++j)
        {
            const ParamView row = matrix.At(i);
            if (values[i][j] != values[j][i])
            {
                row.Fail(std::to_string(j),
                         "not symmetric: " + FormatDuration(values[i][j]) + " here but " +
                             FormatDuration(values[j][i]) + " at " + matrix.Path() + "/" +
                             std::to_string(j) + "/" + std::to_string(i));
            }
            if (halve && values[i][j] % 2 != 0)
            {
                row.Fail(std::to_string(j),
                         "an RTT of " + FormatDuration(values[i][j]) +
                             " does not halve into whole ns");
            }
        }
    }
    if (halve)
    {
        for (auto& row : values)
        {
            for (int64_t& value : row)
            {
                value /= 2;
            }
        }
    }
    return values;
}

Sites
ReadSites(const ParamView& params)
{
    const auto preset = params.Choice("preset", PresetChoices());
    if (preset != nullptr)
    {
        for (const char* key : {"sites", "one_way_delay", "rtt"})
        {
            if (params.Has(key))
            {
                params.Fail(key,
                            "cannot be combined with preset \"" + params.String("preset") +
                                "\", which sets the sites and their delays");
            }
        }
        return preset();
    }

    if (!params.Has("sites"))
    {
        params.Fail("sites", "missing required key \"sites\" (or set \"preset\")");
    }
    Sites sites;
    const ParamView names = params.Get("sites");
    std::set<std::string> seen;
    for (size_t i = 0; i < names.Size(); ++i)
    {
        const std::string& name = names.At(i).AsString();
        if (name.empty())
        {
            names.Fail(std::to_string(i), "site name must not be empty");
        }
        if (!seen.insert(name).second)
        {
            names.Fail(std::to_string(i), "duplicate site \"" + name + "\"");
        }
        sites.names.push_back(name);
    }

    const bool oneWay = params.Has("one_way_delay");
    const bool rtt = params.Has("rtt");
    if (oneWay && rtt)
    {
        params.Fail("rtt", "give either \"one_way_delay\" or \"rtt\", not both");
    }
    if (!oneWay && !rtt)
    {
        params.Fail("rtt", "missing: one of \"rtt\" or \"one_way_delay\" is required");
    }
    sites.oneWayNs =
        ReadDelayMatrix(params, rtt ? "rtt" : "one_way_delay", sites.names.size(), rtt);
    return sites;
}

std::vector<std::pair<size_t, size_t>>
ReadSiteLinks(const ParamView& params, const std::vector<std::string>& names)
{
    std::vector<std::pair<size_t, size_t>> links;
    if (!params.Has("links"))
    {
        for (size_t i = 0; i < names.size(); ++i)
        {
            for (size_t j = i + 1; j < names.size(); ++j)
            {
                links.emplace_back(i, j);
            }
        }
        return links;
    }
    const ParamView list = params.Get("links");
    std::set<std::pair<size_t, size_t>> seen;
    for (size_t l = 0; l < list.Size(); ++l)
    {
        const ParamView pair = list.At(l);
        size_t ends[2];
        for (size_t e = 0; e < 2; ++e)
        {
            const std::string& name = pair.At(e).AsString();
            size_t index = 0;
            while (index < names.size() && names[index] != name)
            {
                ++index;
            }
            if (index == names.size())
            {
                pair.Fail(std::to_string(e), "unknown site \"" + name + "\"");
            }
            ends[e] = index;
        }
        if (ends[0] == ends[1])
        {
            list.Fail(std::to_string(l), "links site \"" + names[ends[0]] + "\" to itself");
        }
        auto key = std::minmax(ends[0], ends[1]);
        if (!seen.insert(key).second)
        {
            list.Fail(std::to_string(l),
                      "duplicate link between \"" + names[ends[0]] + "\" and \"" + names[ends[1]] +
                          "\"");
        }
        links.emplace_back(ends[0], ends[1]);
    }
    return links;
}

/// Everything but the topology itself, which only BuildWanLayout allocates.
WanLayout
ReadLayout(const ParamView& params, const LinkParams& link)
{
    const Sites sites = ReadSites(params);
    const size_t n = sites.names.size();

    WanLayout layout;
    layout.sites = sites.names;
    layout.oneWayNs = sites.oneWayNs;
    double hosts = static_cast<double>(params.Int("hosts_per_site")) * static_cast<double>(n);
    if (params.Has("site_hosts"))
    {
        const ParamView counts = params.Get("site_hosts");
        if (counts.Size() != n)
        {
            params.Fail("site_hosts",
                        "has " + std::to_string(counts.Size()) + " entries but there are " +
                            std::to_string(n) + " sites");
        }
        hosts = 0;
        for (size_t s = 0; s < n; ++s)
        {
            hosts += static_cast<double>(counts.At(s).AsInt());
        }
    }
    RequireGeneratedSize(params, hosts, static_cast<double>(n));
    layout.hostsAt.assign(n, static_cast<uint32_t>(params.Int("hosts_per_site")));
    if (params.Has("site_hosts"))
    {
        const ParamView counts = params.Get("site_hosts");
        for (size_t s = 0; s < n; ++s)
        {
            layout.hostsAt[s] = static_cast<uint32_t>(counts.At(s).AsInt());
        }
    }
    layout.links = ReadSiteLinks(params, sites.names);
    layout.siteLinkDelayNs =
        params.Has("site_link_delay") ? params.DurationNs("site_link_delay") : link.delayNs;
    if (std::all_of(layout.hostsAt.begin(), layout.hostsAt.end(),
                    [](uint32_t count) { return count == 0; }))
    {
        params.Fail("hosts_per_site", "the sites have no hosts");
    }
    return layout;
}

Topology
BuildWan(const ParamView& params, const LinkParams& link)
{
    try
    {
        return BuildWanLayout(ReadLayout(params, link), link);
    }
    catch (const std::invalid_argument& error)
    {
        params.Fail("sites", error.what());
    }
}

} // namespace

Topology
BuildWanLayout(const WanLayout& layout, const LinkParams& link)
{
    const size_t n = layout.sites.size();
    Topology topology;
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> hostSite;
    std::vector<uint32_t> switches;
    for (size_t s = 0; s < n; ++s)
    {
        for (uint32_t i = 0; i < layout.hostsAt[s]; ++i)
        {
            hosts.push_back(topology.AddNode(layout.sites[s] + "-h" + std::to_string(i),
                                             NodeKind::Host,
                                             0,
                                             static_cast<int>(s)));
            hostSite.push_back(static_cast<uint32_t>(s));
        }
    }
    for (size_t s = 0; s < n; ++s)
    {
        switches.push_back(
            topology.AddNode(layout.sites[s], NodeKind::Switch, 1, static_cast<int>(s)));
    }
    LinkParams hostLink = link;
    hostLink.delayNs = layout.siteLinkDelayNs;
    for (size_t i = 0; i < hosts.size(); ++i)
    {
        topology.AddLink(hosts[i], switches[hostSite[i]], hostLink);
    }
    for (const auto& [a, b] : layout.links)
    {
        LinkParams wide = link;
        wide.delayNs = layout.oneWayNs[a][b];
        topology.AddLink(switches[a], switches[b], wide);
    }
    return topology;
}

TopologyGenerator
WanGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "Wide-area network: one switch per site, named after the site, with hosts {site}-h{i} "
        "(group = site index). Sites are joined by the given links (default: full mesh) whose "
        "delays come from a symmetric matrix of one-way delays, or of RTTs halved. Preset "
        "\"aws-gotthard\" uses the AWS regions CA, VA, EU, OR, JP with the midpoints of the RTT "
        "ranges in Gotthard's Table 1. Route with \"delay\" metric.";
    generator.params = [] {
        Spec matrix = Spec::Array(Spec::Array(Spec::Duration()));
        return Spec::Object()
            .Field("preset",
                   Spec::Enum(PresetChoices()),
                   "built-in site list and delays; \"none\" needs sites and a delay matrix",
                   "none")
            .OptionalField("sites",
                           Spec::Array(Spec::String()).MinItems(2),
                           "site names, in matrix order (required unless preset)")
            .OptionalField("one_way_delay",
                           matrix,
                           "one-way delays between sites: a symmetric matrix with a \"0ns\" "
                           "diagonal (give this or rtt)")
            .OptionalField("rtt",
                           matrix,
                           "round-trip times between sites, halved into one-way delays (give "
                           "this or one_way_delay)")
            .Field("hosts_per_site", Spec::Integer().Min(0), "hosts at each site", 1)
            .OptionalField("site_hosts",
                           Spec::Array(Spec::Integer().Min(0)),
                           "hosts at each site, in site order (overrides hosts_per_site)")
            .OptionalField("links",
                           Spec::Array(Spec::Array(Spec::String()).MinItems(2).MaxItems(2)),
                           "site pairs to link, e.g. [[\"CA\", \"VA\"]] (default: full mesh)")
            .OptionalField("site_link_delay",
                           Spec::Duration(),
                           "delay of host-switch links inside a site (default /links/delay)");
    };
    generator.build = BuildWan;
    generator.size = [](const ParamView& params) {
        const WanLayout layout = ReadLayout(params, LinkParams{});
        TopologySize size;
        for (uint32_t hosts : layout.hostsAt)
        {
            size.hosts += hosts;
        }
        size.switches = layout.sites.size();
        size.links = size.hosts + layout.links.size();
        return size;
    };
    return generator;
}

} // namespace incsim
