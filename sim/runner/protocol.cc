#include "sim/runner/protocol.h"

#include <fmt/format.h>

namespace incsim
{

Registry<ProtocolInfo>&
Protocols()
{
    static Registry<ProtocolInfo> registry;
    return registry;
}

void
CheckFindings::Add(const std::string& property, std::string text)
{
    auto& [shown, total] = m_byProperty[property];
    if (shown.size() < kShownPerProperty)
    {
        shown.push_back(std::move(text));
    }
    ++total;
}

void
CheckFindings::Report(CheckReport& report) const
{
    for (const auto& [property, entry] : m_byProperty)
    {
        for (const std::string& text : entry.first)
        {
            report.violations.push_back(property + ": " + text);
        }
        if (entry.second > entry.first.size())
        {
            report.violations.push_back(
                fmt::format("{}: ... {} violations in all", property, entry.second));
        }
    }
}

} // namespace incsim
