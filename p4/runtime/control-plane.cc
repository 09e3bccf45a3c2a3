#include "p4/runtime/control-plane.h"

#include "p4/runtime/error.h"
#include "p4/runtime/names.h"

#include <fmt/format.h>

namespace incsim::p4rt
{
namespace
{

// Group ids beyond this are refused so that a typo cannot allocate a huge vector.
constexpr uint32_t kMaxMulticastGroup = 0xFFFF;

template <typename T>
void
RegisterUnique(std::map<std::string, T*>& map, const std::string& name, T* object,
               const char* kind)
{
    if (name.empty())
    {
        throw Error(fmt::format("cannot register a {} without a name", kind));
    }
    if (!map.emplace(name, object).second)
    {
        throw Error(fmt::format("a {} named {} is already registered", kind, name));
    }
}

template <typename T>
T&
Resolve(const std::map<std::string, T*>& map, const std::string& name, const char* kind)
{
    const auto exact = map.find(name);
    if (exact != map.end())
    {
        return *exact->second;
    }
    std::vector<std::string> all;
    for (const auto& [full, object] : map)
    {
        all.push_back(full);
    }
    const auto nameAt = [&](size_t i) -> const std::string& { return all[i]; };
    const std::vector<size_t> found = MatchNames(all.size(), nameAt, name);
    if (found.size() == 1)
    {
        return *map.at(all[found[0]]);
    }
    if (found.empty())
    {
        throw Error(fmt::format("no {} named {}; the program has: {}", kind, name,
                                JoinNames(all.size(), nameAt)));
    }
    throw Error(fmt::format("{} name {} is ambiguous: {}", kind, name,
                            JoinNames(all.size(), nameAt, found)));
}

} // namespace

void
ControlPlane::RegisterTable(Table& table)
{
    RegisterUnique(m_tables, table.Name(), &table, "table");
}

void
ControlPlane::RegisterRegister(RegisterBase& reg)
{
    RegisterUnique(m_registers, reg.Name(), &reg, "register");
}

void
ControlPlane::RegisterCounter(CounterArray& counter)
{
    RegisterUnique(m_counters, counter.Name(), &counter, "counter");
}

Table&
ControlPlane::GetTable(const std::string& name) const
{
    return Resolve(m_tables, name, "table");
}

RegisterBase&
ControlPlane::GetRegister(const std::string& name) const
{
    return Resolve(m_registers, name, "register");
}

CounterArray&
ControlPlane::GetCounter(const std::string& name) const
{
    return Resolve(m_counters, name, "counter");
}

std::vector<std::string>
ControlPlane::TableNames() const
{
    std::vector<std::string> names;
    for (const auto& [name, table] : m_tables)
    {
        names.push_back(name);
    }
    return names;
}

std::vector<MatchValue>
ControlPlane::BuildKey(const Table& table, const FieldMatches& match) const
{
    const auto& fields = table.Schema().keys;
    std::vector<MatchValue> key(fields.size());
    std::vector<bool> given(fields.size(), false);
    for (const auto& [name, value] : match)
    {
        const size_t i = table.KeyFieldByName(name);
        if (given[i])
        {
            throw Error(fmt::format("table {}: key field {} is given twice", table.Name(),
                                    fields[i].name),
                        "match/" + name);
        }
        given[i] = true;
        key[i] = value;
    }
    for (size_t i = 0; i < fields.size(); ++i)
    {
        if (!given[i] && fields[i].kind == MatchKind::Exact)
        {
            throw Error(fmt::format("table {}: exact key field {} is missing", table.Name(),
                                    fields[i].name),
                        "match");
        }
    }
    return key;
}

std::vector<BitString>
ControlPlane::BuildArgs(const Table& table, const ActionSpec& action, const ActionArgs& args) const
{
    std::vector<BitString> values(action.params.size());
    std::vector<bool> given(action.params.size(), false);
    for (const auto& [name, value] : args)
    {
        size_t i = 0;
        while (i < action.params.size() && action.params[i].name != name)
        {
            ++i;
        }
        if (i == action.params.size())
        {
            const auto nameAt = [&](size_t k) -> const std::string& {
                return action.params[k].name;
            };
            throw Error(fmt::format("table {}: action {} has no parameter {}; its parameters "
                                    "are: {}",
                                    table.Name(), action.name, name,
                                    JoinNames(action.params.size(), nameAt)),
                        "params/" + name);
        }
        if (given[i])
        {
            throw Error(fmt::format("table {}: action {}: parameter {} is given twice",
                                    table.Name(), action.name, name),
                        "params/" + name);
        }
        given[i] = true;
        values[i] = value;
    }
    for (size_t i = 0; i < action.params.size(); ++i)
    {
        if (!given[i])
        {
            throw Error(fmt::format("table {}: action {}: parameter {} is missing", table.Name(),
                                    action.name, action.params[i].name),
                        "params");
        }
    }
    return values;
}

void
ControlPlane::AddEntry(const std::string& tableName, const FieldMatches& match,
                       const std::string& actionName, const ActionArgs& args, int32_t priority)
{
    Table& table = GetTable(tableName);
    const ActionSpec& action = table.ActionByName(actionName);
    table.Add(BuildKey(table, match), action.id, BuildArgs(table, action, args), priority);
}

void
ControlPlane::ModifyEntry(const std::string& tableName, const FieldMatches& match,
                          const std::string& actionName, const ActionArgs& args, int32_t priority)
{
    Table& table = GetTable(tableName);
    const ActionSpec& action = table.ActionByName(actionName);
    table.Modify(BuildKey(table, match), action.id, BuildArgs(table, action, args), priority);
}

void
ControlPlane::DeleteEntry(const std::string& tableName, const FieldMatches& match,
                          int32_t priority)
{
    Table& table = GetTable(tableName);
    table.Delete(BuildKey(table, match), priority);
}

void
ControlPlane::SetDefaultAction(const std::string& tableName, const std::string& actionName,
                               const ActionArgs& args)
{
    Table& table = GetTable(tableName);
    const ActionSpec& action = table.ActionByName(actionName);
    table.SetDefault(action.id, BuildArgs(table, action, args));
}

BitString
ControlPlane::ReadRegister(const std::string& name, size_t index) const
{
    return GetRegister(name).ReadValue(index);
}

void
ControlPlane::WriteRegister(const std::string& name, size_t index, const BitString& value)
{
    GetRegister(name).WriteValue(index, value);
}

void
ControlPlane::SetMulticastGroup(uint32_t group, std::vector<Replica> replicas)
{
    if (group == 0 || group > kMaxMulticastGroup)
    {
        throw Error(fmt::format("multicast group id {} is not in 1..{}", group,
                                kMaxMulticastGroup),
                    "id");
    }
    if (group >= m_groups.size())
    {
        m_groups.resize(group + 1);
    }
    m_groups[group].exists = true;
    m_groups[group].replicas = std::move(replicas);
}

void
ControlPlane::DeleteMulticastGroup(uint32_t group)
{
    if (MulticastGroup(group) == nullptr)
    {
        throw Error(fmt::format("no multicast group {}", group), "id");
    }
    m_groups[group] = Group{};
}

std::vector<uint32_t>
ControlPlane::MulticastGroupIds() const
{
    std::vector<uint32_t> ids;
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        if (m_groups[g].exists)
        {
            ids.push_back(g);
        }
    }
    return ids;
}

void
ControlPlane::SetCloneSession(uint32_t session, uint32_t port)
{
    m_cloneSessions[session] = port;
}

void
ControlPlane::DeleteCloneSession(uint32_t session)
{
    if (m_cloneSessions.erase(session) == 0)
    {
        throw Error(fmt::format("no clone session {}", session), "id");
    }
}

std::optional<uint32_t>
ControlPlane::CloneSessionPort(uint32_t session) const
{
    const auto it = m_cloneSessions.find(session);
    if (it == m_cloneSessions.end())
    {
        return std::nullopt;
    }
    return it->second;
}

} // namespace incsim::p4rt
