#include "sim/runner/faults.h"

#include "sim/core/sim-time.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/topology/topology.h"

#include <ns3/simulator.h>

#include <spdlog/spdlog.h>

namespace incsim
{

namespace
{

uint32_t
ResolveNode(const ParamView& fault, const Topology& topology, const std::string& name,
            const std::string& key)
{
    auto node = topology.FindNode(name);
    if (!node)
    {
        fault.Fail(key, "unknown node \"" + name + "\"");
    }
    return *node;
}

} // namespace

std::vector<FaultEvent>
ResolveFaults(const Scenario& scenario, const Topology& topology)
{
    ParamView faults = scenario.Section("faults");
    std::vector<FaultEvent> events;
    for (size_t i = 0; i < faults.Size(); ++i)
    {
        ParamView fault = faults.At(i);
        FaultEvent event;
        event.atNs = fault.DurationNs("at");
        if (event.atNs >= scenario.DurationNs())
        {
            fault.Fail("at", "fault time is not before the end of the run (/duration)");
        }
        event.action = fault.Choice("action", FaultActionChoices());
        if (fault.Has("link"))
        {
            ParamView ends = fault.Get("link");
            uint32_t a = ResolveNode(ends, topology, ends.At(0).AsString(), "0");
            uint32_t b = ResolveNode(ends, topology, ends.At(1).AsString(), "1");
            auto link = topology.FindLink(a, b);
            if (!link)
            {
                fault.Fail("link", "no link between \"" + ends.At(0).AsString() + "\" and \"" +
                                       ends.At(1).AsString() + "\"");
            }
            event.link = *link;
        }
        if (fault.Has("node"))
        {
            event.node = ResolveNode(fault, topology, fault.String("node"), "node");
        }
        if (event.action == FaultAction::LossRate)
        {
            event.rate = fault.Number("rate");
        }
        events.push_back(event);
    }
    return events;
}

static void
Apply(World* world, FaultEvent event)
{
    spdlog::debug("fault at {}ns: action {}", event.atNs, static_cast<int>(event.action));
    switch (event.action)
    {
    case FaultAction::LinkDown:
        world->SetLinkUp(*event.link, false);
        break;
    case FaultAction::LinkUp:
        world->SetLinkUp(*event.link, true);
        break;
    case FaultAction::NodeCrash:
        world->SetNodeUp(event.node, false);
        break;
    case FaultAction::NodeRecover:
        world->SetNodeUp(event.node, true);
        break;
    case FaultAction::LossRate:
        world->SetLossRate(event.link, event.rate);
        break;
    }
}

void
ScheduleFaults(World& world, const std::vector<FaultEvent>& faults)
{
    for (const auto& event : faults)
    {
        ns3::Simulator::Schedule(ns3::NanoSeconds(event.atNs), &Apply, &world, event);
    }
}

} // namespace incsim
