#include "sim/schema/spec-impl.h"

#include <algorithm>
#include <stdexcept>

namespace incsim
{

using namespace schema_detail;

DistributionParams
ReadDistribution(const ParamView& view, const std::string& key)
{
    const ParamView value = view.Get(key);
    // Strings are durations (ns) and numbers are plain numbers; the spec checked which.
    auto number = [](const ParamView& item) -> double {
        return item.Json().is_string() ? static_cast<double>(item.AsDurationNs())
                                       : item.AsNumber();
    };
    DistributionParams params;
    if (!value.Json().is_object())
    {
        params.a = number(value);
        return params;
    }
    const std::string& dist = value.String("dist");
    const auto& shapes = DistributionShapes();
    const auto shape = std::find_if(shapes.begin(), shapes.end(),
                                    [&dist](const auto& s) { return dist == s.name; });
    if (shape == shapes.end())
    {
        throw std::logic_error("ReadDistribution: " + value.Path() + "/dist \"" + dist +
                               "\" is no distribution shape");
    }
    params.type = shape->type;
    switch (params.type)
    {
    case DistributionParams::Type::Constant:
        params.a = number(value.Get("value"));
        break;
    case DistributionParams::Type::Uniform:
        params.a = number(value.Get("min"));
        params.b = number(value.Get("max"));
        break;
    case DistributionParams::Type::Normal:
        params.a = number(value.Get("mean"));
        params.b = number(value.Get("stddev"));
        break;
    case DistributionParams::Type::Exponential:
        params.a = number(value.Get("mean"));
        break;
    }
    return params;
}

} // namespace incsim
