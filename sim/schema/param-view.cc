#include "sim/schema/spec-impl.h"

#include "sim/core/diagnostics.h"
#include "sim/core/units.h"

#include <stdexcept>

namespace incsim
{

using namespace schema_detail;

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

void
ParamView::UnmappedChoice(const std::string& key, const std::string& value) const
{
    throw std::logic_error("ParamView::Choice: " + JoinPath(m_path, key) + " is \"" + value +
                           "\", which its spec accepts but its Choices table does not map");
}

} // namespace incsim
