#ifndef INCSIM_SCHEMA_SCHEMA_H
#define INCSIM_SCHEMA_SCHEMA_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace incsim
{

/// What a JSON value in a scenario must look like. Units are always written in strings
/// ("3us", "100Gbps", "64KiB"); Duration, Rate and Size specs check them.
enum class SpecKind
{
    Duration,
    Rate,
    Size,
    Integer,
    Number,
    Bool,
    String,
    Enum,
    Distribution,
    Array,
    Object,
};

/// The values of an Enum field mapped to what the code uses (an enum class, a type name), in
/// the order the reference lists them. A component declares one table per Enum field, builds
/// the field's spec from it (Spec::Enum(table)) and reads the field through it
/// (ParamView::Choice), so a valid value cannot fall through to a default.
template <typename T>
using Choices = std::vector<std::pair<std::string, T>>;

/// A schema node describing one JSON value, built fluently:
///   Spec::Object()
///       .Field("k", Spec::Integer().Min(2).Even(), "switch radix", 4)
///       .Field("delay", Spec::Duration(), "propagation delay", "1us")
///       .RequiredField("sites", Spec::Array(Spec::String()).MinItems(2), "site names");
/// Objects reject unknown keys. Defaults are written as they would be in a file.
class Spec
{
  public:
    static Spec Duration();
    static Spec Rate();
    static Spec Size();
    static Spec Integer();
    static Spec Number();
    static Spec Bool();
    static Spec String();
    static Spec Enum(std::vector<std::string> choices);
    /// An Enum of a Choices table's names.
    template <typename T>
    static Spec Enum(const Choices<T>& choices)
    {
        std::vector<std::string> names;
        for (const auto& choice : choices)
        {
            names.push_back(choice.first);
        }
        return Enum(std::move(names));
    }
    /// A random distribution of values of `unit` kind (Duration or Number). Written either as a
    /// plain value (a constant) or as {"dist": "constant"|"uniform"|"normal"|"exponential", ...}.
    static Spec Distribution(SpecKind unit);
    static Spec Array(Spec element);
    static Spec Object();

    // Constraints. For Duration/Rate/Size the bounds are in ns, bps and bytes.
    Spec& Min(double value);
    Spec& Max(double value);
    /// Strict lower bound (e.g. a rate must be > 0).
    Spec& Above(double value);
    /// Strict upper bound (e.g. a loss probability must be < 1).
    Spec& Below(double value);
    /// Why the bounds are what they are; range errors end with it in parentheses.
    Spec& Because(std::string reason);
    /// The number must be below the number at JSON pointer `pointer` of the document being
    /// resolved, e.g. a queue priority below "/switch/priorities". Checked once the whole
    /// document is resolved; a document without that value is not checked.
    Spec& BelowValueAt(std::string pointer);
    Spec& Even();
    Spec& MinItems(size_t n);
    Spec& MaxItems(size_t n);
    /// For an Enum filled from a registry: errors read `unknown NOUN "x" (known: a, b)` and the
    /// reference calls the type "NOUN name".
    Spec& KnownAs(std::string noun);
    /// For a String: the value names an input file (relative to the scenario file). Its
    /// contents, not its name, are part of the scenario's canonical form.
    Spec& NamesFile();

    // Object fields, documented in declaration order.
    /// Optional field with a default; the resolved scenario always contains it.
    Spec& Field(std::string name, Spec spec, std::string doc, nlohmann::json defaultValue);
    /// Must be present.
    Spec& RequiredField(std::string name, Spec spec, std::string doc);
    /// May be absent, with no default (ParamView::Has tells).
    Spec& OptionalField(std::string name, Spec spec, std::string doc);
    /// Exactly one of these fields must be present (e.g. topology "generator" or "file").
    Spec& ExactlyOneOf(std::vector<std::string> names);
    /// The spec of field `valueField` depends on the value of the Enum field `selector`
    /// (e.g. /protocol/params depends on /protocol/name). `choose` returns the spec for a
    /// selector value; it is only called with valid choices.
    /// `selector` must be declared before `valueField`. It may be a slash-separated path into a
    /// sibling object ("protocol/name" for the top-level /workload). When the selector is
    /// absent, the field must be absent too and is left out of the resolved value.
    Spec& DependentField(std::string valueField,
                         std::string selector,
                         std::function<Spec(const std::string&)> choose,
                         std::string doc,
                         nlohmann::json defaultValue = nlohmann::json::object());

    /// Field `name` (declared before, optional) may only appear when the Enum field `selector`
    /// (declared before it) has one of `values`; otherwise it is an error, e.g.
    /// `key "node" does not apply to action "link_down"`.
    Spec& OnlyWhen(const std::string& name, std::string selector, std::vector<std::string> values);
    /// Field `name` (declared before) must be present when `selector` has one of `values`.
    Spec& RequiredWhen(const std::string& name,
                       std::string selector,
                       std::vector<std::string> values);

    SpecKind Kind() const;
    /// Every Enum in this spec with its values, by JSON pointer from this spec's root: object
    /// fields, nested objects and array items ("/faults/0/action"). A DependentField is walked
    /// with the spec its selector chooses in `resolved` (a value Resolve returned), and left
    /// out without one. Enums filled from a registry (KnownAs) are left out: their values are
    /// looked up by name in that registry.
    std::vector<std::pair<std::string, std::vector<std::string>>> EnumFields(
        const nlohmann::json* resolved = nullptr) const;
    /// Human-readable description of what is expected, e.g. `a duration like "1us"`.
    std::string Expected() const;

    /// Validates `value` against this spec, returning a copy with every default filled in.
    /// Throws InputError(file, path, message) at the first problem.
    nlohmann::json Resolve(const nlohmann::json& value,
                           const std::string& file,
                           const std::string& path) const;

    /// The canonical form of a value Resolve() returned, for identifying what a run simulates:
    /// durations, rates and sizes in base units ("1us" and "1000ns" both read "1000ns"),
    /// numbers as doubles, and every NamesFile() string replaced by `fileIdentity(text)` (e.g.
    /// a hash of the file's contents). Two values with the same canonical form are the same
    /// scenario.
    nlohmann::json Canonical(const nlohmann::json& resolved,
                             const std::function<nlohmann::json(const std::string& path,
                                                                const std::string& text)>&
                                 fileIdentity,
                             const std::string& path = "") const;

    /// Markdown reference for this spec: one table row per field, nested objects as sections.
    std::string Markdown(const std::string& title) const;

    struct Impl;

  private:
    explicit Spec(SpecKind kind);
    std::shared_ptr<Impl> m_impl;
};

/// A validated, resolved JSON value with typed access. Keys are checked by the spec, so
/// accessors throw only on programming errors (a key the spec does not declare).
class ParamView
{
  public:
    ParamView(const nlohmann::json* value, std::string file, std::string path);

    bool Has(const std::string& key) const;
    ParamView Get(const std::string& key) const;

    int64_t Int(const std::string& key) const;
    double Number(const std::string& key) const;
    bool Bool(const std::string& key) const;
    const std::string& String(const std::string& key) const;
    /// The Enum field `key` mapped through `choices`. A value the spec accepts but the table
    /// lacks is a programming error (std::logic_error), never a silent default.
    template <typename T>
    T Choice(const std::string& key, const Choices<T>& choices) const
    {
        const std::string& value = String(key);
        for (const auto& choice : choices)
        {
            if (choice.first == value)
            {
                return choice.second;
            }
        }
        UnmappedChoice(key, value);
    }
    int64_t DurationNs(const std::string& key) const;
    uint64_t RateBps(const std::string& key) const;
    uint64_t SizeBytes(const std::string& key) const;

    // For arrays.
    size_t Size() const;
    ParamView At(size_t index) const;

    // The value at this view itself, for array elements.
    int64_t AsInt() const;
    double AsNumber() const;
    const std::string& AsString() const;
    int64_t AsDurationNs() const;

    const nlohmann::json& Json() const { return *m_value; }
    const std::string& File() const { return m_file; }
    /// JSON pointer of this value, e.g. "/topology/params".
    const std::string& Path() const { return m_path; }

    /// Throws InputError naming this value's path (plus `key` when not empty).
    [[noreturn]] void Fail(const std::string& key, const std::string& message) const;

  private:
    [[noreturn]] void UnmappedChoice(const std::string& key, const std::string& value) const;

    const nlohmann::json* m_value;
    std::string m_file;
    std::string m_path;
};

/// A sampled distribution parsed from a resolved Distribution value, in base units
/// (ns for durations).
struct DistributionParams
{
    enum class Type
    {
        Constant,
        Uniform,
        Normal,
        Exponential
    };
    Type type = Type::Constant;
    double a = 0; ///< value, min or mean
    double b = 0; ///< max or stddev
};

DistributionParams ReadDistribution(const ParamView& view, const std::string& key);

} // namespace incsim

#endif
