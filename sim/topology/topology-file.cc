#include "sim/topology/topology-file.h"

#include "sim/core/diagnostics.h"
#include "sim/core/json-reader.h"

#include <map>
#include <stdexcept>

namespace incsim
{

Spec
LossRateSpec()
{
    return Spec::Number().Min(0).Below(1).Because(
        "a link that loses every packet is a failed link: use a link_down fault, which routing "
        "sees");
}

namespace
{

const Choices<NodeKind>&
NodeKindChoices()
{
    static const Choices<NodeKind> choices{{"host", NodeKind::Host}, {"switch", NodeKind::Switch}};
    return choices;
}

} // namespace

Spec
TopologyFileSpec()
{
    Spec node = Spec::Object()
                    .RequiredField("name", Spec::String(), "unique node name")
                    .RequiredField("kind", Spec::Enum(NodeKindChoices()), "host or switch")
                    .OptionalField("layer",
                                   Spec::Integer().Min(0),
                                   "drawing layer: 0 hosts, 1 edge/ToR, 2 aggregation/spine, "
                                   "3 core (default 0 for hosts, 1 for switches)")
                    .OptionalField("group",
                                   Spec::Integer().Min(-1),
                                   "pod, rack or site the node belongs to (default -1: none)");
    Spec link =
        Spec::Object()
            .RequiredField("a", Spec::String(), "name of one end")
            .RequiredField("b", Spec::String(), "name of the other end")
            .OptionalField("rate", Spec::Rate().Above(0), "line rate (default /links/rate)")
            .OptionalField("delay", Spec::Duration(), "propagation delay (default /links/delay)")
            .OptionalField("buffer",
                           Spec::Size().Above(0),
                           "egress buffer at each end (default /links/buffer)")
            .OptionalField("loss",
                           LossRateSpec(),
                           "random loss probability, below 1 (default /links/loss)");
    return Spec::Object()
        .OptionalField("description", Spec::String(), "free text")
        .RequiredField("nodes", Spec::Array(node).MinItems(1), "hosts and switches")
        .Field("links", Spec::Array(link), "links between nodes", nlohmann::json::array());
}

Topology
TopologyFromJson(const nlohmann::json& document,
                 const std::string& file,
                 const LinkParams& defaults)
{
    const nlohmann::json resolved = TopologyFileSpec().Resolve(document, file, "");
    const ParamView root(&resolved, file, "");
    const ParamView nodes = root.Get("nodes");
    const ParamView links = root.Get("links");

    Topology topology;
    // Name -> index in /nodes, for the error on a duplicate.
    std::map<std::string, size_t> firstSeen;
    for (size_t i = 0; i < nodes.Size(); ++i)
    {
        const ParamView node = nodes.At(i);
        const std::string& name = node.String("name");
        if (name.empty())
        {
            node.Fail("name", "node name must not be empty");
        }
        auto [it, inserted] = firstSeen.emplace(name, i);
        if (!inserted)
        {
            node.Fail("name",
                      "duplicate node name \"" + name + "\" (first at " + nodes.Path() + "/" +
                          std::to_string(it->second) + ")");
        }
        const NodeKind kind = node.Choice("kind", NodeKindChoices());
        const int layer = node.Has("layer") ? static_cast<int>(node.Int("layer"))
                                            : (kind == NodeKind::Host ? 0 : 1);
        const int group = node.Has("group") ? static_cast<int>(node.Int("group")) : -1;
        topology.AddNode(name, kind, layer, group);
    }

    for (size_t i = 0; i < links.Size(); ++i)
    {
        const ParamView link = links.At(i);
        auto end = [&](const char* key) {
            const std::string& name = link.String(key);
            auto id = topology.FindNode(name);
            if (!id)
            {
                link.Fail(key, "unknown node \"" + name + "\"");
            }
            return *id;
        };
        const uint32_t a = end("a");
        const uint32_t b = end("b");
        if (a == b)
        {
            link.Fail("b", "link joins \"" + topology.Node(a).name + "\" to itself");
        }
        LinkParams params = defaults;
        if (link.Has("rate"))
        {
            params.rateBps = link.RateBps("rate");
        }
        if (link.Has("delay"))
        {
            params.delayNs = link.DurationNs("delay");
        }
        if (link.Has("buffer"))
        {
            params.bufferBytes = link.SizeBytes("buffer");
        }
        if (link.Has("loss"))
        {
            params.lossRate = link.Number("loss");
        }
        topology.AddLink(a, b, params);
    }

    // A host with no link cannot send or receive; it is almost certainly a typo in a name.
    for (uint32_t host : topology.Hosts())
    {
        if (topology.NumPorts(host) == 0)
        {
            nodes.At(host).Fail("", "host \"" + topology.Node(host).name + "\" has no link");
        }
    }
    return topology;
}

Topology
LoadTopologyFile(const std::string& path, const LinkParams& defaults)
{
    return TopologyFromJson(ReadJsonFile(path), path, defaults);
}

} // namespace incsim
