#ifndef INCSIM_SCENARIO_PROTOCOL_H
#define INCSIM_SCENARIO_PROTOCOL_H

#include "sim/core/registry.h"
#include "sim/schema/schema.h"
#include "sim/trace/trace-schema.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{

class World;

/// A protocol installs its switch programs and host endpoints into a built world, and
/// reports its metrics after the run. Protocols register themselves in Protocols(); the core
/// never names one.
class Protocol
{
  public:
    virtual ~Protocol() = default;
    /// `params` is /protocol/params and `workload` is /workload, both validated.
    virtual void Install(World& world, const ParamView& params, const ParamView& workload) = 0;
    /// Adds protocol-specific entries to metrics.json.
    virtual void CollectMetrics(nlohmann::json& metrics) const = 0;
};

/// What a protocol's checker found in a run directory's traces.
struct CheckReport
{
    /// One line per property that held ("property: what was checked").
    std::vector<std::string> passed;
    /// One line per violation (a few per property, then a count), "property: text".
    std::vector<std::string> violations;
    bool Ok() const { return violations.empty(); }
};

/// What a checker found, by property. The properties are declared up front and each is
/// reported once, either as held (with what was checked) or by its violations, so no property
/// can read "ok" beside its own failures; naming an undeclared property is a programming error
/// (std::logic_error). The first few violations of each property are kept and the rest
/// counted, so a report stays readable however broken the run.
class CheckFindings
{
  public:
    static constexpr size_t kShownPerProperty = 5;

    /// The properties checked, in report order.
    explicit CheckFindings(const std::vector<std::string>& properties);

    void Add(const std::string& property, std::string text);
    /// What was checked of `property`: the line reported if it held. Every declared property
    /// needs one before Report().
    void Checked(const std::string& property, std::string text);
    bool Any(const std::string& property) const;
    CheckReport Report() const;

  private:
    struct Property
    {
        std::string name;
        std::string checked;
        bool summarized = false;
        std::vector<std::string> shown;
        uint64_t total = 0;
    };
    size_t IndexOf(const std::string& property) const;

    std::vector<Property> m_properties;
};

struct ProtocolInfo
{
    std::string description;
    std::function<Spec()> params;   ///< spec of /protocol/params
    std::function<Spec()> workload; ///< spec of /workload
    std::function<std::unique_ptr<Protocol>()> create;
    /// Trace files the protocol can write, declared (name for /outputs/traces, columns and
    /// their meaning), besides the core ones (CoreTraces()). /outputs/traces accepts only
    /// these and the core ones, and defaults to "messages" (when declared here) and "links".
    /// `incsim traces` (docs/traces.md) documents them from these declarations.
    std::vector<TraceSchema> traces = {};
    /// Verifies the protocol's guarantees on a finished run directory (`incsim check`); may be
    /// empty. Throws InputError if the traces it needs are missing.
    std::function<CheckReport(const std::string& runDir)> check = {};
};

Registry<ProtocolInfo>& Protocols();

} // namespace incsim

#endif
