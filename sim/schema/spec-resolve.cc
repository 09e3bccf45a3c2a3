#include "sim/schema/spec-impl.h"

#include "sim/core/diagnostics.h"
#include "sim/core/units.h"

#include <algorithm>
#include <limits>
#include <map>

namespace incsim
{

using namespace schema_detail;

namespace
{

[[noreturn]] void
Throw(const std::string& file, const std::string& path, const std::string& message)
{
    throw InputError(file, path, message);
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

bool
MeetsBounds(const Spec::Impl& impl, double value)
{
    return (!impl.min || value >= *impl.min) && (!impl.max || value <= *impl.max) &&
           (!impl.above || value > *impl.above) && (!impl.below || value < *impl.below);
}

/// Why a unit string was refused, as ": reason" after "got ...", or "" when the text is no
/// number followed by a unit at all.
std::string
UnitHint(SpecKind kind, const std::string& text)
{
    if (!text.empty() && text[0] == '-')
    {
        return ": negative values are not allowed here";
    }
    std::string problem;
    switch (kind)
    {
    case SpecKind::Duration:
        problem = DurationProblem(text);
        break;
    case SpecKind::Rate:
        problem = RateProblem(text);
        break;
    default:
        problem = SizeProblem(text);
        break;
    }
    return problem.empty() ? problem : ": " + problem;
}

/// UnitHint for a value inside a distribution, where durations may be negative.
std::string
DistributionValueHint(SpecKind unit, const json& value)
{
    if (unit != SpecKind::Duration || !value.is_string())
    {
        return "";
    }
    const std::string& text = value.get_ref<const std::string&>();
    const std::string problem = DurationProblem(text.empty() || text[0] != '-' ? text
                                                                                : text.substr(1));
    return problem.empty() ? problem : ": " + problem;
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

/// "expected an integer in [1, 8], got 9", with the spec's Because() reason after it.
std::string
OutOfRange(const Spec& spec, const Spec::Impl& impl, const json& value)
{
    std::string message = "expected " + spec.Expected() + ", got " + Got(value);
    return impl.because.empty() ? message : message + " (" + impl.because + ")";
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
        Throw(file, path, OutOfRange(spec, impl, value));
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
            Throw(file, path,
                  "expected " + spec.Expected() + ", got " + Got(value) +
                      DistributionValueHint(impl.unit, value));
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
                  "expected " + valuePhrase + ", got " + Got(value[key]) +
                      DistributionValueHint(impl.unit, value[key]));
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

/// A check that needs the whole resolved document: the value at `path` must be below the
/// number at `pointer` (Spec::BelowValueAt).
struct DeferredCheck
{
    std::string path;
    double value = 0;
    std::string pointer;
    std::string expected;
    std::string got;
};

json ResolveIn(const Spec& spec, const json& value, const std::string& file,
               const std::string& path, std::vector<DeferredCheck>& deferred);

json
ResolveObject(const Spec::Impl& impl, const json& value, const std::string& file,
              const std::string& path, std::vector<DeferredCheck>& deferred)
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
            out[field.name] = ResolveIn(chosen, given != nullptr ? *given : *field.defaultValue,
                                        file, childPath, deferred);
            continue;
        }

        if (given != nullptr)
        {
            out[field.name] = ResolveIn(*field.spec, *given, file, childPath, deferred);
        }
        else if (field.required)
        {
            Throw(file, childPath, "missing required key " + Quote(field.name));
        }
        else if (field.defaultValue)
        {
            out[field.name] =
                ResolveIn(*field.spec, *field.defaultValue, file, childPath, deferred);
        }
    }
    return out;
}

json
ResolveIn(const Spec& spec, const json& value, const std::string& file, const std::string& path,
          std::vector<DeferredCheck>& deferred)
{
    const Spec::Impl& impl = Spec::Impl::Of(spec);
    auto defer = [&](double number) {
        if (!impl.belowPointer.empty())
        {
            deferred.push_back({path, number, impl.belowPointer, spec.Expected(), Got(value)});
        }
    };
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
        ResolveUnitString(spec, impl, value, file, path);
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
                  "expected " + spec.Expected() + " that fits in 64 bits, got " + Got(value));
        }
        int64_t number = value.get<int64_t>();
        if ((impl.even && number % 2 != 0) || !MeetsBounds(impl, static_cast<double>(number)))
        {
            Throw(file, path, OutOfRange(spec, impl, value));
        }
        defer(static_cast<double>(number));
        return value;
    }
    case SpecKind::Number:
        if (!value.is_number())
        {
            Throw(file, path, "expected a number, got " + Got(value));
        }
        if (!MeetsBounds(impl, value.get<double>()))
        {
            Throw(file, path, OutOfRange(spec, impl, value));
        }
        defer(value.get<double>());
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
            Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
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
            Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
        }
        return value;
    case SpecKind::Distribution:
        return ResolveDistribution(spec, impl, value, file, path);
    case SpecKind::Array: {
        if (!value.is_array())
        {
            Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
        }
        if (value.size() < impl.minItems || (impl.maxItems && value.size() > *impl.maxItems))
        {
            Throw(file, path, "expected " + spec.Expected() + ", got " + Got(value));
        }
        json out = json::array();
        for (size_t i = 0; i < value.size(); ++i)
        {
            out.push_back(
                ResolveIn(*impl.element, value[i], file, path + "/" + std::to_string(i), deferred));
        }
        return out;
    }
    case SpecKind::Object:
        return ResolveObject(impl, value, file, path, deferred);
    }
    return value;
}

} // namespace

nlohmann::json
Spec::Resolve(const nlohmann::json& value, const std::string& file, const std::string& path) const
{
    std::vector<DeferredCheck> deferred;
    json out = ResolveIn(*this, value, file, path, deferred);
    for (const DeferredCheck& check : deferred)
    {
        // A pointer outside this document (a spec resolved on its own) has nothing to check.
        const json::json_pointer pointer(check.pointer);
        if (!out.contains(pointer) || !out[pointer].is_number())
        {
            continue;
        }
        const json& limit = out[pointer];
        if (check.value >= limit.get<double>())
        {
            Throw(file, check.path,
                  "expected " + check.expected + ", which is " + Got(limit) + ", got " +
                      check.got);
        }
    }
    return out;
}

} // namespace incsim
