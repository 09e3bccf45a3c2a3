#ifndef INCSIM_SCHEMA_SPEC_IMPL_H
#define INCSIM_SCHEMA_SPEC_IMPL_H

// Internal to sim/schema: the representation of a Spec, shared by the files that build,
// resolve, canonicalise and document specs, and the message helpers they share.

#include "sim/schema/schema.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace incsim
{

struct Spec::Impl
{
    struct FieldDef
    {
        std::string name;
        std::optional<Spec> spec; // empty for dependent fields
        std::string doc;
        std::optional<nlohmann::json> defaultValue;
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
    std::optional<double> below;
    std::string because; // Because: why the bounds are what they are
    bool even = false;
    size_t minItems = 0;
    std::optional<size_t> maxItems;
    std::vector<std::string> choices; // Enum
    std::string noun;                 // Enum filled from a registry
    bool namesFile = false;           // String naming an input file
    SpecKind unit = SpecKind::Number; // Distribution
    std::optional<Spec> element;      // Array
    std::vector<FieldDef> fields;     // Object, in declaration order
    std::vector<std::vector<std::string>> exactlyOne;
    std::string belowPointer; // BelowValueAt

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

} // namespace incsim

namespace incsim::schema_detail
{

using nlohmann::json;

/// A JSON value for "got ...": compact, strings quoted, long values elided.
std::string Got(const json& value);
std::string Quote(const std::string& text);
/// `path` + "/" + `key` as a JSON pointer token.
std::string JoinPath(const std::string& path, const std::string& key);
std::string Join(const std::vector<std::string>& items, const std::string& sep, bool quote);
bool Contains(const std::vector<std::string>& items, const std::string& item);
/// A bound in the spec's unit: "1us", "100Gbps", "64KiB", or a number.
std::string FormatBound(SpecKind kind, double value);
/// "in [64B, 9KiB]", "above 0bps", ">= 2", "in [0, 7], below /switch/priorities", or "".
std::string ConstraintText(const Spec::Impl& impl);
/// "exactly 2 items", "at least 1 items", or "".
std::string ItemCountText(const Spec::Impl& impl);
/// The type of a value without its constraints: what a type error reports.
std::string BasePhrase(const Spec::Impl& impl);
/// A unit string in base units (ns, bps, bytes), or nullopt.
std::optional<double> ParseUnitValue(SpecKind kind, const std::string& text);
/// A duration with an optional leading '-', as distributions of offsets allow.
std::optional<int64_t> ParseSignedDurationNs(const std::string& text);
/// "protocol/name" -> {"protocol", "name"}.
std::vector<std::string> SplitSelector(const std::string& selector);
/// A resolved selector value by a slash-separated path ("generator", "protocol/name").
const json* LookupSelector(const json& object, const std::string& selector);
/// "protocol/name" -> "name".
std::string LastSegment(const std::string& selector);

/// The shapes a Distribution takes: {"dist": name, keys...}.
struct DistributionShape
{
    const char* name;
    DistributionParams::Type type;
    std::vector<std::string> keys; // in the order they are checked, "dist" excluded
};
const std::vector<DistributionShape>& DistributionShapes();
std::vector<std::string> DistributionNames();

} // namespace incsim::schema_detail

#endif
