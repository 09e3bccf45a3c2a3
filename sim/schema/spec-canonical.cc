#include "sim/schema/spec-impl.h"

#include "sim/core/units.h"

#include <fmt/format.h>

namespace incsim
{

using namespace schema_detail;

namespace
{

/// A unit value in base units, signed for distribution values ("-1us" -> "-1000ns").
json
CanonicalUnit(SpecKind kind, const json& value)
{
    if (!value.is_string())
    {
        return value.is_number() ? json(value.get<double>()) : value;
    }
    const std::string& text = value.get_ref<const std::string&>();
    switch (kind)
    {
    case SpecKind::Duration:
        if (const auto ns = ParseSignedDurationNs(text))
        {
            return fmt::format("{}ns", *ns);
        }
        break;
    case SpecKind::Rate:
        if (const auto bps = ParseRateBps(text))
        {
            return fmt::format("{}bps", *bps);
        }
        break;
    case SpecKind::Size:
        if (const auto bytes = ParseSizeBytes(text))
        {
            return fmt::format("{}B", *bytes);
        }
        break;
    default:
        break;
    }
    return value;
}

} // namespace

nlohmann::json
Spec::Canonical(const nlohmann::json& resolved,
                const std::function<nlohmann::json(const std::string&, const std::string&)>&
                    fileIdentity,
                const std::string& path) const
{
    const Impl& impl = *m_impl;
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
        return CanonicalUnit(impl.kind, resolved);
    case SpecKind::Number:
        return resolved.is_number() ? json(resolved.get<double>()) : resolved;
    case SpecKind::String:
        return impl.namesFile && resolved.is_string()
                   ? fileIdentity(path, resolved.get<std::string>())
                   : resolved;
    case SpecKind::Distribution: {
        if (!resolved.is_object())
        {
            return CanonicalUnit(impl.unit, resolved);
        }
        json out = json::object();
        for (const auto& [key, value] : resolved.items())
        {
            out[key] = key == "dist" ? value : CanonicalUnit(impl.unit, value);
        }
        return out;
    }
    case SpecKind::Array: {
        json out = json::array();
        for (size_t i = 0; i < resolved.size(); ++i)
        {
            out.push_back(
                impl.element->Canonical(resolved[i], fileIdentity, path + "/" + std::to_string(i)));
        }
        return out;
    }
    case SpecKind::Object: {
        json out = json::object();
        for (const auto& field : impl.fields)
        {
            if (!resolved.is_object() || !resolved.contains(field.name))
            {
                continue;
            }
            const json& value = resolved[field.name];
            const std::string childPath = JoinPath(path, field.name);
            if (field.choose)
            {
                const json* selector = LookupSelector(resolved, field.selector);
                out[field.name] =
                    selector != nullptr && selector->is_string()
                        ? field.choose(selector->get<std::string>())
                              .Canonical(value, fileIdentity, childPath)
                        : value;
                continue;
            }
            out[field.name] = field.spec->Canonical(value, fileIdentity, childPath);
        }
        return out;
    }
    default:
        return resolved;
    }
}

} // namespace incsim
