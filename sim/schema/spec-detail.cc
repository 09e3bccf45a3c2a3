#include "sim/schema/spec-impl.h"

#include "sim/core/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace incsim::schema_detail
{

namespace
{

constexpr size_t kMaxGotLength = 60;

std::string
EscapePointer(const std::string& key)
{
    std::string out;
    for (char c : key)
    {
        if (c == '~')
        {
            out += "~0";
        }
        else if (c == '/')
        {
            out += "~1";
        }
        else
        {
            out += c;
        }
    }
    return out;
}

std::string
FormatNumber(double value)
{
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
    {
        return std::to_string(static_cast<long long>(value));
    }
    char buffer[40];
    std::snprintf(buffer, sizeof(buffer), "%.15g", value);
    if (std::strtod(buffer, nullptr) != value)
    {
        std::snprintf(buffer, sizeof(buffer), "%.17g", value);
    }
    return buffer;
}

/// The bounds alone: "in [64B, 9KiB]", "in [0, 1)", "above 0bps", ">= 2", or "".
std::string
BoundsText(const Spec::Impl& impl)
{
    auto bound = [&](double v) { return FormatBound(impl.kind, v); };
    std::string lower = impl.above ? "(" + bound(*impl.above)
                        : impl.min ? "[" + bound(*impl.min)
                                   : "";
    std::string upper = impl.below ? bound(*impl.below) + ")"
                        : impl.max ? bound(*impl.max) + "]"
                                   : "";
    if (!lower.empty() && !upper.empty())
    {
        return "in " + lower + ", " + upper;
    }
    if (impl.above)
    {
        return "above " + bound(*impl.above);
    }
    if (impl.min)
    {
        return ">= " + bound(*impl.min);
    }
    if (impl.below)
    {
        return "below " + bound(*impl.below);
    }
    if (impl.max)
    {
        return "<= " + bound(*impl.max);
    }
    return "";
}

/// What a value of a unit kind looks like, without constraints.
std::string
UnitPhrase(SpecKind kind)
{
    switch (kind)
    {
    case SpecKind::Duration:
        return "a duration like \"1us\"";
    case SpecKind::Rate:
        return "a rate like \"100Gbps\"";
    case SpecKind::Size:
        return "a size like \"64KiB\"";
    default:
        return "a number";
    }
}

} // namespace

/// Renders a JSON value for "got ..." compactly: strings quoted, long values elided.
std::string
Got(const json& value)
{
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > kMaxGotLength)
    {
        text = text.substr(0, kMaxGotLength - 3) + "...";
    }
    return text;
}

std::string
Quote(const std::string& text)
{
    return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string
JoinPath(const std::string& path, const std::string& key)
{
    return path + "/" + EscapePointer(key);
}

std::string
Join(const std::vector<std::string>& items, const std::string& sep, bool quote)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
    {
        if (i != 0)
        {
            out += sep;
        }
        out += quote ? Quote(items[i]) : items[i];
    }
    return out;
}

bool
Contains(const std::vector<std::string>& items, const std::string& item)
{
    return std::find(items.begin(), items.end(), item) != items.end();
}

std::string
FormatBound(SpecKind kind, double value)
{
    switch (kind)
    {
    case SpecKind::Duration:
        return FormatDuration(static_cast<int64_t>(value));
    case SpecKind::Rate:
        return FormatRate(static_cast<uint64_t>(value));
    case SpecKind::Size:
        return FormatSize(static_cast<uint64_t>(value));
    default:
        return FormatNumber(value);
    }
}

/// "in [64B, 9KiB]", "above 0bps", ">= 2", "in [0, 7], below /switch/priorities", or "" without
/// constraints.
std::string
ConstraintText(const Spec::Impl& impl)
{
    std::string text = BoundsText(impl);
    if (!impl.belowPointer.empty())
    {
        text += (text.empty() ? "below " : ", below ") + impl.belowPointer;
    }
    return text;
}

std::string
ItemCountText(const Spec::Impl& impl)
{
    if (impl.maxItems && impl.minItems == *impl.maxItems)
    {
        return "exactly " + std::to_string(impl.minItems) + " items";
    }
    if (impl.maxItems && impl.minItems > 0)
    {
        return std::to_string(impl.minItems) + " to " + std::to_string(*impl.maxItems) + " items";
    }
    if (impl.maxItems)
    {
        return "at most " + std::to_string(*impl.maxItems) + " items";
    }
    if (impl.minItems > 0)
    {
        return "at least " + std::to_string(impl.minItems) + " items";
    }
    return "";
}

/// The type of a value without its constraints: what a type error reports.
std::string
BasePhrase(const Spec::Impl& impl)
{
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
        return UnitPhrase(impl.kind);
    case SpecKind::Integer:
        return "an integer";
    case SpecKind::Number:
        return "a number";
    case SpecKind::Bool:
        return "a boolean";
    case SpecKind::String:
        return "a string";
    case SpecKind::Enum:
        if (!impl.noun.empty())
        {
            return "a " + impl.noun + " name (known: " +
                   (impl.choices.empty() ? "none" : Join(impl.choices, ", ", false)) + ")";
        }
        return "one of " + Join(impl.choices, ", ", true);
    case SpecKind::Distribution:
        if (impl.unit == SpecKind::Duration)
        {
            return "a duration like \"1us\" or \"-1us\", or a distribution like "
                   "{\"dist\": \"uniform\", \"min\": \"0ns\", \"max\": \"1us\"}";
        }
        return "a number, or a distribution like {\"dist\": \"normal\", \"mean\": 0, "
               "\"stddev\": 1}";
    case SpecKind::Array:
        return "an array";
    case SpecKind::Object:
        return "an object";
    }
    return "a value";
}

std::optional<double>
ParseUnitValue(SpecKind kind, const std::string& text)
{
    switch (kind)
    {
    case SpecKind::Duration:
        if (auto ns = ParseDurationNs(text))
        {
            return static_cast<double>(*ns);
        }
        break;
    case SpecKind::Rate:
        if (auto bps = ParseRateBps(text))
        {
            return static_cast<double>(*bps);
        }
        break;
    case SpecKind::Size:
        if (auto bytes = ParseSizeBytes(text))
        {
            return static_cast<double>(*bytes);
        }
        break;
    default:
        break;
    }
    return std::nullopt;
}

/// A duration with an optional leading '-', as distributions of offsets allow.
std::optional<int64_t>
ParseSignedDurationNs(const std::string& text)
{
    if (!text.empty() && text[0] == '-')
    {
        auto ns = ParseDurationNs(std::string_view(text).substr(1));
        if (!ns)
        {
            return std::nullopt;
        }
        return -*ns;
    }
    return ParseDurationNs(text);
}

/// "protocol/name" -> {"protocol", "name"}.
std::vector<std::string>
SplitSelector(const std::string& selector)
{
    std::vector<std::string> keys;
    size_t start = 0;
    size_t slash;
    while ((slash = selector.find('/', start)) != std::string::npos)
    {
        keys.push_back(selector.substr(start, slash - start));
        start = slash + 1;
    }
    keys.push_back(selector.substr(start));
    return keys;
}

/// Finds a resolved selector value by a slash-separated path ("generator", "protocol/name").
const json*
LookupSelector(const json& object, const std::string& selector)
{
    const json* current = &object;
    for (const auto& key : SplitSelector(selector))
    {
        if (!current->is_object() || !current->contains(key))
        {
            return nullptr;
        }
        current = &(*current)[key];
    }
    return current;
}

const std::vector<DistributionShape>&
DistributionShapes()
{
    static const std::vector<DistributionShape> shapes{
        {"constant", DistributionParams::Type::Constant, {"value"}},
        {"uniform", DistributionParams::Type::Uniform, {"min", "max"}},
        {"normal", DistributionParams::Type::Normal, {"mean", "stddev"}},
        {"exponential", DistributionParams::Type::Exponential, {"mean"}},
    };
    return shapes;
}

std::vector<std::string>
DistributionNames()
{
    std::vector<std::string> names;
    for (const auto& shape : DistributionShapes())
    {
        names.emplace_back(shape.name);
    }
    return names;
}

std::string
LastSegment(const std::string& selector)
{
    size_t slash = selector.rfind('/');
    return slash == std::string::npos ? selector : selector.substr(slash + 1);
}

} // namespace incsim::schema_detail
