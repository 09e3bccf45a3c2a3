#include "sim/scenario/protocol.h"

#include <fmt/format.h>

#include <stdexcept>

namespace incsim
{

Registry<ProtocolInfo>&
Protocols()
{
    static Registry<ProtocolInfo> registry;
    return registry;
}

CheckFindings::CheckFindings(const std::vector<std::string>& properties)
{
    for (const std::string& name : properties)
    {
        for (const Property& property : m_properties)
        {
            if (property.name == name)
            {
                throw std::logic_error(fmt::format("check property \"{}\" declared twice", name));
            }
        }
        Property property;
        property.name = name;
        m_properties.push_back(std::move(property));
    }
}

size_t
CheckFindings::IndexOf(const std::string& property) const
{
    for (size_t i = 0; i < m_properties.size(); ++i)
    {
        if (m_properties[i].name == property)
        {
            return i;
        }
    }
    throw std::logic_error(fmt::format("check property \"{}\" was not declared", property));
}

void
CheckFindings::Add(const std::string& property, std::string text)
{
    Property& entry = m_properties[IndexOf(property)];
    if (entry.shown.size() < kShownPerProperty)
    {
        entry.shown.push_back(std::move(text));
    }
    ++entry.total;
}

void
CheckFindings::Checked(const std::string& property, std::string text)
{
    Property& entry = m_properties[IndexOf(property)];
    entry.checked = std::move(text);
    entry.summarized = true;
}

bool
CheckFindings::Any(const std::string& property) const
{
    return m_properties[IndexOf(property)].total > 0;
}

CheckReport
CheckFindings::Report() const
{
    CheckReport report;
    for (const Property& property : m_properties)
    {
        if (!property.summarized)
        {
            throw std::logic_error(
                fmt::format("check property \"{}\" was never summarized", property.name));
        }
        if (property.total == 0)
        {
            report.passed.push_back(property.name + ": " + property.checked);
            continue;
        }
        for (const std::string& text : property.shown)
        {
            report.violations.push_back(property.name + ": " + text);
        }
        if (property.total > property.shown.size())
        {
            report.violations.push_back(
                fmt::format("{}: ... {} violations in all", property.name, property.total));
        }
    }
    return report;
}

} // namespace incsim
