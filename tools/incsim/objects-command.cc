#include "commands.h"

#include <ns3/type-id.h>

#include <fmt/format.h>

#include <map>

namespace incsim::cli
{

namespace
{

// Markdown tables of every incsim ns-3 object's attributes and trace sources, read from the
// registered TypeIds so that docs/ns3-objects.md cannot drift from the code.
std::string
ObjectsMarkdown()
{
    std::map<std::string, ns3::TypeId> types;
    for (uint16_t i = 0; i < ns3::TypeId::GetRegisteredN(); ++i)
    {
        ns3::TypeId tid = ns3::TypeId::GetRegistered(i);
        if (tid.GetName().rfind("incsim::", 0) == 0)
        {
            types.emplace(tid.GetName(), tid);
        }
    }
    std::string out;
    for (const auto& [name, tid] : types)
    {
        out += fmt::format("### {}\n\nParent: `{}`\n\n", name, tid.GetParent().GetName());
        if (tid.GetAttributeN() > 0)
        {
            out += "| Attribute | Default | Description |\n|---|---|---|\n";
            for (size_t a = 0; a < tid.GetAttributeN(); ++a)
            {
                auto info = tid.GetAttribute(a);
                out += fmt::format("| `{}` | `{}` | {} |\n",
                                   info.name,
                                   info.initialValue->SerializeToString(info.checker),
                                   info.help);
            }
            out += "\n";
        }
        if (tid.GetTraceSourceN() > 0)
        {
            out += "| Trace source | Description |\n|---|---|\n";
            for (size_t t = 0; t < tid.GetTraceSourceN(); ++t)
            {
                auto info = tid.GetTraceSource(t);
                out += fmt::format("| `{}` | {} |\n", info.name, info.help);
            }
            out += "\n";
        }
    }
    return out;
}

} // namespace

void
AddObjectsCommand(CLI::App& app)
{
    CLI::App* objects = app.add_subcommand(
        "objects",
        "Print the attributes and trace sources of incsim's ns-3 objects (docs/ns3-objects.md)");
    objects->callback([] { fmt::print("{}", ObjectsMarkdown()); });
}

} // namespace incsim::cli
