#include "sim/scenario/schema.h"

#include "sim/core/diagnostics.h"
#include "sim/core/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace incsim
{

using nlohmann::json;

struct Spec::Impl
{
    struct FieldDef
    {
        std::string name;
        std::optional<Spec> spec; // empty for dependent fields
        std::string doc;
        std::optional<json> defaultValue;
        bool required = false;
        // DependentField: the spec comes from choose(value of selector).
        std::string selector;
        std::function<Spec(const std::string&)> choose;
        // OnlyWhen / RequiredWhen.
        std::string whenSelector;
        std::optional<std::vector<std::string>> appliesTo;
        std::vector<std::string> requiredFor;
    };

    explicit Impl(SpecKind k)
        : kind(k)
    {
    }

    SpecKind kind;
    std::optional<double> min;
    std::optional<double> max;
    std::optional<double> above;
    bool even = false;
    size_t minItems = 0;
    std::optional<size_t> maxItems;
    std::vector<std::string> choices; // Enum
    std::string noun;                 // Enum filled from a registry
    SpecKind unit = SpecKind::Number; // Distribution
    std::optional<Spec> element;      // Array
    std::vector<FieldDef> fields;     // Object, in declaration order
    std::vector<std::vector<std::string>> exactlyOne;

    /// Nested classes may read Spec's private members, so helpers reach the impl through here.
    static const Impl& Of(const Spec& spec) { return *spec.m_impl; }

    /// Copy on write: builders mutate a Spec that another copy (e.g. a field) may share.
    static Impl& Mutable(Spec& spec)
    {
        if (spec.m_impl.use_count() > 1)
        {
            spec.m_impl = std::make_shared<Impl>(*spec.m_impl);
        }
        return *spec.m_impl;
    }

    const FieldDef* FindField(const std::string& name) const
    {
        for (const auto& field : fields)
        {
            if (field.name == name)
            {
                return &field;
            }
        }
        return nullptr;
    }

    FieldDef* FindField(const std::string& name)
    {
        return const_cast<FieldDef*>(std::as_const(*this).FindField(name));
    }
};

namespace
{

constexpr size_t kMaxGotLength = 60;

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
JoinPath(const std::string& path, const std::string& key)
{
    return path + "/" + EscapePointer(key);
}

[[noreturn]] void
Throw(const std::string& file, const std::string& path, const std::string& message)
{
    throw InputError(file, path, message);
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

size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = up;
        }
    }
    return row[b.size()];
}

/// `unknown key "k" (expected one of: a, b); did you mean "a"?`; `known` must be sorted.
std::string
UnknownKeyMessage(const std::string& key, const std::vector<std::string>& known)
{
    std::string message = "unknown key " + Quote(key);
    if (known.empty())
    {
        return message + " (this object takes no keys)";
    }
    message += " (expected one of: " + Join(known, ", ", false) + ")";
    const std::string* best = nullptr;
    size_t bestDistance = 3; // suggest only within edit distance 2
    for (const auto& name : known)
    {
        size_t distance = EditDistance(key, name);
        if (distance < bestDistance)
        {
            best = &name;
            bestDistance = distance;
        }
    }
    if (best != nullptr)
    {
        message += "; did you mean " + Quote(*best) + "?";
    }
    return message;
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

/// "in [64B, 9KiB]", "above 0bps", ">= 2", or "" without bounds.
std::string
ConstraintText(const Spec::Impl& impl)
{
    auto bound = [&](double v) { return FormatBound(impl.kind, v); };
    if (impl.above && impl.max)
    {
        return "in (" + bound(*impl.above) + ", " + bound(*impl.max) + "]";
    }
    if (impl.min && impl.max)
    {
        return "in [" + bound(*impl.min) + ", " + bound(*impl.max) + "]";
    }
    if (impl.above)
    {
        return "above " + bound(*impl.above);
    }
    if (impl.min)
    {
        return ">= " + bound(*impl.min);
    }
    if (impl.max)
    {
        return "<= " + bound(*impl.max);
    }
    return "";
}

bool
MeetsBounds(const Spec::Impl& impl, double value)
{
    return (!impl.min || value >= *impl.min) && (!impl.max || value <= *impl.max) &&
           (!impl.above || value > *impl.above);
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

/// Checks that a unit string is a number followed by a known unit, to explain why the
/// parser refused it: a negative or fractional base-unit value rather than a typo.
std::string
UnitHint(SpecKind kind, const std::string& text)
{
    if (!text.empty() && text[0] == '-')
    {
        return ": negative values are not allowed here";
    }
    size_t i = 0;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
    {
        ++i;
    }
    if (i == 0 || i == text.size())
    {
        return "";
    }
    std::string scaled = "1" + text.substr(i);
    bool known = (kind == SpecKind::Duration && ParseDurationNs(scaled)) ||
                 (kind == SpecKind::Rate && ParseRateBps(scaled)) ||
                 (kind == SpecKind::Size && ParseSizeBytes(scaled));
    if (!known)
    {
        return "";
    }
    // The number times one unit, roughly: enough to tell a value too large from a fraction.
    const long double number = std::strtold(text.substr(0, i).c_str(), nullptr);
    switch (kind)
    {
    case SpecKind::Duration:
        if (number * static_cast<long double>(*ParseDurationNs(scaled)) > kMaxDurationNs)
        {
            return ": too large (at most " + FormatDuration(kMaxDurationNs) + ")";
        }
        break;
    case SpecKind::Rate:
        if (number * static_cast<long double>(*ParseRateBps(scaled)) > UINT64_MAX)
        {
            return ": too large (at most " + std::to_string(UINT64_MAX) + "bps)";
        }
        break;
    default:
        if (number * static_cast<long double>(*ParseSizeBytes(scaled)) > UINT64_MAX)
        {
            return ": too large (at most " + std::to_string(UINT64_MAX) + "B)";
        }
        break;
    }
    switch (kind)
    {
    case SpecKind::Duration:
        return ": not a whole number of nanoseconds";
    case SpecKind::Rate:
        return ": not a whole number of bits per second";
    default:
        return ": not a whole number of bytes";
    }
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

/// A value inside a distribution: a signed duration string or a JSON number.
std::optional<double>
ParseDistributionValue(SpecKind unit, const json& value)
{
    if (unit == SpecKind::Duration)
    {
        if (!value.is_string())
        {
            return std::nullopt;
        }
        auto ns = ParseSignedDurationNs(value.get_ref<const std::string&>());
        return ns ? std::optional<double>(static_cast<double>(*ns)) : std::nullopt;
    }
    if (!value.is_number())
    {
        return std::nullopt;
    }
    return value.get<double>();
}

struct DistributionShape
{
    const char* name;
    DistributionParams::Type type;
    std::vector<std::string> keys; // in the order they are checked, "dist" excluded
};

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

std::string
LastSegment(const std::string& selector)
{
    size_t slash = selector.rfind('/');
    return slash == std::string::npos ? selector : selector.substr(slash + 1);
}

std::string
ResolveUnitString(const Spec& spec, const Spec::Impl& impl, const json& value,
                  const std::string& file, const std::string& path)
{
    if (!value.is_string())
    {
        Throw(file, path, "expected " + BasePhrase(impl) + ", got " + Got(value));
    }
    const auto& text = value.get_ref<const std::string&>();
    auto parsed = ParseUnitValue(impl.kind, text);
    if (!parsed)
    {
        Throw(file, path,
              "expected " + BasePhrase(impl) + ", got " + Got(value) + UnitHint(impl.kind, text));
    }
    if (!MeetsBounds(impl, *parsed))
    {
        Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
    }
    return text;
}

json
ResolveDistribution(const Spec& spec, const Spec::Impl& impl, const json& value,
                    const std::string& file, const std::string& path)
{
    std::string valuePhrase = impl.unit == SpecKind::Duration
                                  ? std::string("a duration like \"1us\" or \"-1us\"")
                                  : std::string("a number");
    if (!value.is_object())
    {
        if (!ParseDistributionValue(impl.unit, value))
        {
            Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
        }
        return value;
    }
    if (!value.contains("dist"))
    {
        Throw(file, JoinPath(path, "dist"), "missing required key \"dist\"");
    }
    const json& dist = value["dist"];
    const DistributionShape* shape = nullptr;
    for (const auto& candidate : DistributionShapes())
    {
        if (dist.is_string() && dist.get_ref<const std::string&>() == candidate.name)
        {
            shape = &candidate;
        }
    }
    if (shape == nullptr)
    {
        Throw(file, JoinPath(path, "dist"),
              "expected one of " + Join(DistributionNames(), ", ", true) + ", got " + Got(dist));
    }
    std::vector<std::string> allowed = shape->keys;
    allowed.emplace_back("dist");
    std::sort(allowed.begin(), allowed.end());
    for (const auto& item : value.items())
    {
        if (!Contains(allowed, item.key()))
        {
            Throw(file, JoinPath(path, item.key()), UnknownKeyMessage(item.key(), allowed));
        }
    }
    std::map<std::string, double> parsed;
    for (const auto& key : shape->keys)
    {
        if (!value.contains(key))
        {
            Throw(file, JoinPath(path, key), "missing required key " + Quote(key));
        }
        auto number = ParseDistributionValue(impl.unit, value[key]);
        if (!number)
        {
            Throw(file, JoinPath(path, key),
                  "expected " + valuePhrase + ", got " + Got(value[key]));
        }
        parsed[key] = *number;
    }
    auto kindPhrase = impl.unit == SpecKind::Duration ? std::string("a duration")
                                                      : std::string("a number");
    auto zero = FormatBound(impl.unit, 0);
    if (shape->type == DistributionParams::Type::Uniform && parsed["max"] < parsed["min"])
    {
        Throw(file, JoinPath(path, "max"),
              "expected " + kindPhrase + " >= min " + Got(value["min"]) + ", got " +
                  Got(value["max"]));
    }
    if (shape->type == DistributionParams::Type::Normal && parsed["stddev"] < 0)
    {
        Throw(file, JoinPath(path, "stddev"),
              "expected " + kindPhrase + " >= " + zero + ", got " + Got(value["stddev"]));
    }
    if (shape->type == DistributionParams::Type::Exponential && parsed["mean"] <= 0)
    {
        Throw(file, JoinPath(path, "mean"),
              "expected " + kindPhrase + " above " + zero + ", got " + Got(value["mean"]));
    }
    return value;
}

json
ResolveObject(const Spec::Impl& impl, const json& value, const std::string& file,
              const std::string& path)
{
    if (!value.is_object())
    {
        Throw(file, path, "expected an object, got " + Got(value));
    }
    std::vector<std::string> known;
    for (const auto& field : impl.fields)
    {
        known.push_back(field.name);
    }
    std::sort(known.begin(), known.end());
    for (const auto& item : value.items())
    {
        if (!Contains(known, item.key()))
        {
            Throw(file, JoinPath(path, item.key()), UnknownKeyMessage(item.key(), known));
        }
    }
    for (const auto& group : impl.exactlyOne)
    {
        size_t present = 0;
        for (const auto& name : group)
        {
            present += value.contains(name) ? 1 : 0;
        }
        if (present != 1)
        {
            Throw(file, path, "expected exactly one of " + Join(group, ", ", true));
        }
    }

    json out = json::object();
    for (const auto& field : impl.fields)
    {
        const std::string childPath = JoinPath(path, field.name);
        const json* given = value.contains(field.name) ? &value[field.name] : nullptr;

        if (!field.whenSelector.empty())
        {
            const json* selector = LookupSelector(out, field.whenSelector);
            std::string chosen = selector != nullptr && selector->is_string()
                                     ? selector->get<std::string>()
                                     : std::string();
            std::string what = LastSegment(field.whenSelector);
            if (given != nullptr && field.appliesTo && !Contains(*field.appliesTo, chosen))
            {
                Throw(file, childPath,
                      "key " + Quote(field.name) + " does not apply to " + what + " " +
                          Quote(chosen));
            }
            if (given == nullptr && Contains(field.requiredFor, chosen))
            {
                Throw(file, childPath,
                      "missing required key " + Quote(field.name) + " for " + what + " " +
                          Quote(chosen));
            }
        }

        if (field.choose)
        {
            const json* selector = LookupSelector(out, field.selector);
            if (selector == nullptr || !selector->is_string())
            {
                if (given != nullptr)
                {
                    Throw(file, childPath,
                          "key " + Quote(field.name) + " does not apply without " +
                              Quote(field.selector));
                }
                continue;
            }
            Spec chosen = field.choose(selector->get<std::string>());
            out[field.name] = chosen.Resolve(given != nullptr ? *given : *field.defaultValue,
                                             file, childPath);
            continue;
        }

        if (given != nullptr)
        {
            out[field.name] = field.spec->Resolve(*given, file, childPath);
        }
        else if (field.required)
        {
            Throw(file, childPath, "missing required key " + Quote(field.name));
        }
        else if (field.defaultValue)
        {
            out[field.name] = field.spec->Resolve(*field.defaultValue, file, childPath);
        }
    }
    return out;
}

// ---- Markdown reference ----

std::string
EscapeCell(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '|')
        {
            out += "\\|";
        }
        else if (c == '\n')
        {
            out += ' ';
        }
        else
        {
            out += c;
        }
    }
    return out;
}

std::string
Code(const std::string& text)
{
    return "`" + text + "`";
}

std::string
CodeList(const std::vector<std::string>& items)
{
    std::vector<std::string> coded;
    for (const auto& item : items)
    {
        coded.push_back(Code(item));
    }
    return Join(coded, ", ", false);
}

/// "exactly 2 ", "at least 1 ", ... to put before the items of an array in the reference.
std::string
ItemCountPrefix(const Spec::Impl& impl)
{
    std::string count = ItemCountText(impl);
    return count.empty() ? count : count.substr(0, count.size() - std::string("items").size());
}


/// The type of an array's items: "strings", "integers >= 0", "arrays of durations".
std::string
DocTypePlural(const Spec::Impl& impl)
{
    std::string constraint = ConstraintText(impl);
    auto withConstraint = [&](std::string type) {
        return constraint.empty() ? type : type + " " + constraint;
    };
    switch (impl.kind)
    {
    case SpecKind::Duration:
        return withConstraint("durations");
    case SpecKind::Rate:
        return withConstraint("rates");
    case SpecKind::Size:
        return withConstraint("sizes");
    case SpecKind::Integer:
        return withConstraint(impl.even ? "even integers" : "integers");
    case SpecKind::Number:
        return withConstraint("numbers");
    case SpecKind::Bool:
        return "booleans";
    case SpecKind::String:
        return "strings";
    case SpecKind::Enum:
        if (!impl.noun.empty())
        {
            return impl.noun + " names";
        }
        return "values from " + CodeList(impl.choices);
    case SpecKind::Distribution:
        return impl.unit == SpecKind::Duration ? "duration distributions"
                                               : "number distributions";
    case SpecKind::Array:
        return "arrays of " + ItemCountPrefix(impl) + DocTypePlural(Spec::Impl::Of(*impl.element));
    case SpecKind::Object:
        return "objects";
    }
    return "";
}

std::string
DocType(const Spec::Impl& impl)
{
    std::string constraint = ConstraintText(impl);
    auto withConstraint = [&](std::string type) {
        return constraint.empty() ? type : type + " " + constraint;
    };
    switch (impl.kind)
    {
    case SpecKind::Duration:
        return withConstraint("duration");
    case SpecKind::Rate:
        return withConstraint("rate");
    case SpecKind::Size:
        return withConstraint("size");
    case SpecKind::Integer:
        return withConstraint(impl.even ? "even integer" : "integer");
    case SpecKind::Number:
        return withConstraint("number");
    case SpecKind::Bool:
        return "boolean";
    case SpecKind::String:
        return "string";
    case SpecKind::Enum:
        if (!impl.noun.empty())
        {
            return impl.noun + " name";
        }
        return "one of " + CodeList(impl.choices);
    case SpecKind::Distribution:
        return impl.unit == SpecKind::Duration ? "duration distribution" : "number distribution";
    case SpecKind::Array:
        return "array of " + ItemCountPrefix(impl) + DocTypePlural(Spec::Impl::Of(*impl.element));
    case SpecKind::Object:
        return "object";
    }
    return "";
}

} // namespace

// ---- Spec ----

Spec::Spec(SpecKind kind)
    : m_impl(std::make_shared<Impl>(kind))
{
}

Spec
Spec::Duration()
{
    return Spec(SpecKind::Duration);
}

Spec
Spec::Rate()
{
    return Spec(SpecKind::Rate);
}

Spec
Spec::Size()
{
    return Spec(SpecKind::Size);
}

Spec
Spec::Integer()
{
    return Spec(SpecKind::Integer);
}

Spec
Spec::Number()
{
    return Spec(SpecKind::Number);
}

Spec
Spec::Bool()
{
    return Spec(SpecKind::Bool);
}

Spec
Spec::String()
{
    return Spec(SpecKind::String);
}

Spec
Spec::Enum(std::vector<std::string> choices)
{
    Spec spec(SpecKind::Enum);
    spec.m_impl->choices = std::move(choices);
    return spec;
}

Spec
Spec::Distribution(SpecKind unit)
{
    if (unit != SpecKind::Duration && unit != SpecKind::Number)
    {
        throw std::invalid_argument("Spec::Distribution: unit must be Duration or Number");
    }
    Spec spec(SpecKind::Distribution);
    spec.m_impl->unit = unit;
    return spec;
}

Spec
Spec::Array(Spec element)
{
    Spec spec(SpecKind::Array);
    spec.m_impl->element = std::move(element);
    return spec;
}

Spec
Spec::Object()
{
    return Spec(SpecKind::Object);
}

Spec&
Spec::Min(double value)
{
    Impl::Mutable(*this).min = value;
    return *this;
}

Spec&
Spec::Max(double value)
{
    Impl::Mutable(*this).max = value;
    return *this;
}

Spec&
Spec::Above(double value)
{
    Impl::Mutable(*this).above = value;
    return *this;
}

Spec&
Spec::Even()
{
    Impl::Mutable(*this).even = true;
    return *this;
}

Spec&
Spec::MinItems(size_t n)
{
    Impl::Mutable(*this).minItems = n;
    return *this;
}

Spec&
Spec::MaxItems(size_t n)
{
    Impl::Mutable(*this).maxItems = n;
    return *this;
}

Spec&
Spec::KnownAs(std::string noun)
{
    Impl::Mutable(*this).noun = std::move(noun);
    return *this;
}

Spec&
Spec::Field(std::string name, Spec spec, std::string doc, nlohmann::json defaultValue)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    field.defaultValue = std::move(defaultValue);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::RequiredField(std::string name, Spec spec, std::string doc)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    field.required = true;
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::OptionalField(std::string name, Spec spec, std::string doc)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::ExactlyOneOf(std::vector<std::string> names)
{
    Impl::Mutable(*this).exactlyOne.push_back(std::move(names));
    return *this;
}

Spec&
Spec::DependentField(std::string valueField,
                     std::string selector,
                     std::function<Spec(const std::string&)> choose,
                     std::string doc,
                     nlohmann::json defaultValue)
{
    Impl::FieldDef field;
    field.name = std::move(valueField);
    field.selector = std::move(selector);
    field.choose = std::move(choose);
    field.doc = std::move(doc);
    field.defaultValue = std::move(defaultValue);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::OnlyWhen(const std::string& name, std::string selector, std::vector<std::string> values)
{
    Impl::FieldDef* field = Impl::Mutable(*this).FindField(name);
    if (field == nullptr || (!field->whenSelector.empty() && field->whenSelector != selector))
    {
        throw std::logic_error("Spec::OnlyWhen: declare field '" + name + "' first");
    }
    field->whenSelector = std::move(selector);
    field->appliesTo = std::move(values);
    return *this;
}

Spec&
Spec::RequiredWhen(const std::string& name, std::string selector, std::vector<std::string> values)
{
    Impl::FieldDef* field = Impl::Mutable(*this).FindField(name);
    if (field == nullptr || (!field->whenSelector.empty() && field->whenSelector != selector))
    {
        throw std::logic_error("Spec::RequiredWhen: declare field '" + name + "' first");
    }
    field->whenSelector = std::move(selector);
    field->requiredFor = std::move(values);
    return *this;
}

SpecKind
Spec::Kind() const
{
    return m_impl->kind;
}

std::string
Spec::Expected() const
{
    const Impl& impl = *m_impl;
    std::string base = BasePhrase(impl);
    if (impl.kind == SpecKind::Integer && impl.even)
    {
        base = "an even integer";
    }
    std::string constraint;
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
    case SpecKind::Integer:
    case SpecKind::Number:
        constraint = ConstraintText(impl);
        break;
    case SpecKind::Array:
        constraint = ItemCountText(impl);
        constraint = constraint.empty() ? constraint : "of " + constraint;
        break;
    default:
        break;
    }
    return constraint.empty() ? base : base + " " + constraint;
}

nlohmann::json
Spec::Resolve(const nlohmann::json& value, const std::string& file, const std::string& path) const
{
    const Impl& impl = *m_impl;
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
        ResolveUnitString(*this, impl, value, file, path);
        return value;
    case SpecKind::Integer: {
        if (!value.is_number_integer())
        {
            Throw(file, path, "expected an integer, got " + Got(value));
        }
        if (value.is_number_unsigned() &&
            value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        {
            Throw(file,
                  path,
                  "expected " + Expected() + " that fits in 64 bits, got " + Got(value));
        }
        int64_t number = value.get<int64_t>();
        if ((impl.even && number % 2 != 0) || !MeetsBounds(impl, static_cast<double>(number)))
        {
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        return value;
    }
    case SpecKind::Number:
        if (!value.is_number())
        {
            Throw(file, path, "expected a number, got " + Got(value));
        }
        if (!MeetsBounds(impl, value.get<double>()))
        {
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        return value;
    case SpecKind::Bool:
        if (!value.is_boolean())
        {
            Throw(file, path, "expected a boolean, got " + Got(value));
        }
        return value;
    case SpecKind::String:
        if (!value.is_string())
        {
            Throw(file, path, "expected a string, got " + Got(value));
        }
        return value;
    case SpecKind::Enum:
        if (!value.is_string())
        {
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        if (!Contains(impl.choices, value.get_ref<const std::string&>()))
        {
            if (!impl.noun.empty())
            {
                Throw(file, path,
                      "unknown " + impl.noun + " " + Got(value) + " (known: " +
                          (impl.choices.empty() ? "none" : Join(impl.choices, ", ", false)) +
                          ")");
            }
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        return value;
    case SpecKind::Distribution:
        return ResolveDistribution(*this, impl, value, file, path);
    case SpecKind::Array: {
        if (!value.is_array())
        {
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        if (value.size() < impl.minItems || (impl.maxItems && value.size() > *impl.maxItems))
        {
            Throw(file, path, "expected " + Expected() + ", got " + Got(value));
        }
        json out = json::array();
        for (size_t i = 0; i < value.size(); ++i)
        {
            out.push_back(impl.element->Resolve(value[i], file, path + "/" + std::to_string(i)));
        }
        return out;
    }
    case SpecKind::Object:
        return ResolveObject(impl, value, file, path);
    }
    return value;
}

namespace
{

const Spec*
FindSelectorSpec(const Spec::Impl& object, const std::string& selector)
{
    const Spec::Impl* current = &object;
    const Spec* found = nullptr;
    for (const auto& key : SplitSelector(selector))
    {
        const auto* field = current->FindField(key);
        if (field == nullptr || !field->spec)
        {
            return nullptr;
        }
        found = &*field->spec;
        current = &Spec::Impl::Of(*found);
    }
    return found;
}

std::string
Dotted(const std::string& prefix, const std::string& name)
{
    std::string dotted = name;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    return prefix.empty() ? dotted : prefix + "." + dotted;
}

/// One heading, its text and the field table of an object; nested objects, array items and
/// dependent fields follow as sections of the same level, named by their dotted path.
void
WriteMarkdownSection(std::ostringstream& out,
                     const Spec& spec,
                     const std::string& heading,
                     const std::string& doc,
                     const std::string& prefix,
                     int level)
{
    const Spec::Impl& impl = Spec::Impl::Of(spec);
    out << std::string(level, '#') << ' ' << heading << "\n\n";
    if (!doc.empty())
    {
        out << doc << "\n\n";
    }
    if (impl.kind != SpecKind::Object)
    {
        out << "Type: " << DocType(impl) << ".\n\n";
        return;
    }
    if (impl.fields.empty())
    {
        out << "No keys.\n\n";
        return;
    }
    for (const auto& group : impl.exactlyOne)
    {
        out << "Exactly one of " << CodeList(group) << " must be given.\n\n";
    }
    out << "| Key | Type | Default | Meaning |\n";
    out << "|-----|------|---------|---------|\n";
    for (const auto& field : impl.fields)
    {
        std::string type = field.choose ? "object" : DocType(Spec::Impl::Of(*field.spec));
        std::string what = LastSegment(field.whenSelector);
        std::string def;
        if (field.required)
        {
            def = "required";
        }
        else if (!field.requiredFor.empty())
        {
            def = "required for " + what + " " + CodeList(field.requiredFor);
        }
        else if (field.defaultValue)
        {
            def = Code(field.defaultValue->dump());
        }
        else
        {
            def = "—";
        }
        std::string meaning = field.doc;
        if (field.appliesTo)
        {
            meaning += " Only for " + what + " " + CodeList(*field.appliesTo) + ".";
        }
        if (field.spec && Spec::Impl::Of(*field.spec).kind == SpecKind::Enum &&
            !Spec::Impl::Of(*field.spec).noun.empty())
        {
            const auto& choices = Spec::Impl::Of(*field.spec).choices;
            meaning += " Known: " + (choices.empty() ? std::string("none") : CodeList(choices)) +
                       ".";
        }
        if (field.choose)
        {
            meaning += " Its keys depend on " + Code(Dotted(prefix, field.selector)) + ".";
        }
        out << "| " << Code(field.name) << " | " << EscapeCell(type) << " | " << EscapeCell(def)
            << " | " << EscapeCell(meaning) << " |\n";
    }
    out << "\n";

    // Sections below the first stay at one level, named by their full dotted path, so that
    // deep nesting does not run out of heading levels.
    int childLevel = level < 3 ? level + 1 : level;
    for (const auto& field : impl.fields)
    {
        std::string dotted = Dotted(prefix, field.name);
        if (field.choose)
        {
            const Spec* selector = FindSelectorSpec(impl, field.selector);
            if (selector == nullptr)
            {
                continue;
            }
            for (const auto& choice : Spec::Impl::Of(*selector).choices)
            {
                WriteMarkdownSection(out,
                                     field.choose(choice),
                                     Code(dotted) + " when " +
                                         Code(Dotted(prefix, field.selector)) + " is " +
                                         Code(choice),
                                     "",
                                     dotted,
                                     childLevel);
            }
            continue;
        }
        const Spec::Impl& child = Spec::Impl::Of(*field.spec);
        if (child.kind == SpecKind::Object)
        {
            WriteMarkdownSection(out, *field.spec, Code(dotted), field.doc, dotted, childLevel);
        }
        else if (child.kind == SpecKind::Array &&
                 Spec::Impl::Of(*child.element).kind == SpecKind::Object)
        {
            WriteMarkdownSection(out,
                                 *child.element,
                                 Code(dotted + "[]"),
                                 field.doc + " Each item is an object:",
                                 dotted + "[]",
                                 childLevel);
        }
    }
}

} // namespace

std::string
Spec::Markdown(const std::string& title) const
{
    std::ostringstream out;
    WriteMarkdownSection(out, *this, title, "", "", 2);
    return out.str();
}

// ---- ParamView ----

ParamView::ParamView(const nlohmann::json* value, std::string file, std::string path)
    : m_value(value),
      m_file(std::move(file)),
      m_path(std::move(path))
{
}

namespace
{

/// Accessors are used with keys the spec declares; anything else is a programming error.
const json&
Member(const json& object, const std::string& path, const std::string& key)
{
    if (!object.is_object() || !object.contains(key))
    {
        throw std::logic_error("ParamView: no key \"" + key + "\" at " +
                               (path.empty() ? std::string("/") : path));
    }
    return object[key];
}

int64_t
DurationOf(const json& value, const std::string& path)
{
    if (value.is_string())
    {
        if (auto ns = ParseSignedDurationNs(value.get_ref<const std::string&>()))
        {
            return *ns;
        }
    }
    throw std::logic_error("ParamView: " + path + " is not a duration: " + value.dump());
}

} // namespace

bool
ParamView::Has(const std::string& key) const
{
    return m_value->is_object() && m_value->contains(key);
}

ParamView
ParamView::Get(const std::string& key) const
{
    return ParamView(&Member(*m_value, m_path, key), m_file, JoinPath(m_path, key));
}

int64_t
ParamView::Int(const std::string& key) const
{
    return Get(key).AsInt();
}

double
ParamView::Number(const std::string& key) const
{
    return Get(key).AsNumber();
}

bool
ParamView::Bool(const std::string& key) const
{
    return Member(*m_value, m_path, key).get<bool>();
}

const std::string&
ParamView::String(const std::string& key) const
{
    return Member(*m_value, m_path, key).get_ref<const std::string&>();
}

int64_t
ParamView::DurationNs(const std::string& key) const
{
    return Get(key).AsDurationNs();
}

uint64_t
ParamView::RateBps(const std::string& key) const
{
    const json& value = Member(*m_value, m_path, key);
    if (auto bps = value.is_string() ? ParseRateBps(value.get_ref<const std::string&>())
                                     : std::nullopt)
    {
        return *bps;
    }
    throw std::logic_error("ParamView: " + JoinPath(m_path, key) + " is not a rate");
}

uint64_t
ParamView::SizeBytes(const std::string& key) const
{
    const json& value = Member(*m_value, m_path, key);
    if (auto bytes = value.is_string() ? ParseSizeBytes(value.get_ref<const std::string&>())
                                       : std::nullopt)
    {
        return *bytes;
    }
    throw std::logic_error("ParamView: " + JoinPath(m_path, key) + " is not a size");
}

size_t
ParamView::Size() const
{
    return m_value->size();
}

ParamView
ParamView::At(size_t index) const
{
    if (!m_value->is_array() || index >= m_value->size())
    {
        throw std::logic_error("ParamView: no item " + std::to_string(index) + " at " + m_path);
    }
    return ParamView(&(*m_value)[index], m_file, m_path + "/" + std::to_string(index));
}

int64_t
ParamView::AsInt() const
{
    return m_value->get<int64_t>();
}

double
ParamView::AsNumber() const
{
    return m_value->get<double>();
}

const std::string&
ParamView::AsString() const
{
    return m_value->get_ref<const std::string&>();
}

int64_t
ParamView::AsDurationNs() const
{
    return DurationOf(*m_value, m_path);
}

void
ParamView::Fail(const std::string& key, const std::string& message) const
{
    throw InputError(m_file, key.empty() ? m_path : JoinPath(m_path, key), message);
}

// ---- Distributions ----

DistributionParams
ReadDistribution(const ParamView& view, const std::string& key)
{
    const json& value = Member(view.Json(), view.Path(), key);
    // Strings are durations (ns) and numbers are plain numbers; the spec checked which.
    auto number = [&](const json& item) -> double {
        if (item.is_string())
        {
            return static_cast<double>(DurationOf(item, JoinPath(view.Path(), key)));
        }
        return item.get<double>();
    };
    DistributionParams params;
    if (!value.is_object())
    {
        params.a = number(value);
        return params;
    }
    const auto& dist = value.at("dist").get_ref<const std::string&>();
    for (const auto& shape : DistributionShapes())
    {
        if (dist == shape.name)
        {
            params.type = shape.type;
        }
    }
    switch (params.type)
    {
    case DistributionParams::Type::Constant:
        params.a = number(value.at("value"));
        break;
    case DistributionParams::Type::Uniform:
        params.a = number(value.at("min"));
        params.b = number(value.at("max"));
        break;
    case DistributionParams::Type::Normal:
        params.a = number(value.at("mean"));
        params.b = number(value.at("stddev"));
        break;
    case DistributionParams::Type::Exponential:
        params.a = number(value.at("mean"));
        break;
    }
    return params;
}

} // namespace incsim
