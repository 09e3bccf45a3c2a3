#include "p4/runtime/entries-file.h"

#include "p4/runtime/control-plane.h"
#include "p4/runtime/error.h"
#include "p4/runtime/names.h"
#include "p4/runtime/value-parse.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <initializer_list>

namespace incsim::p4rt
{
namespace
{

using nlohmann::json;

// Parsed text stores non-negative integers as unsigned; json built in C++ from int literals
// stores them as signed. Accept both.
bool
IsNonNegativeInteger(const json& value)
{
    return value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
}

/// Walks the document, tracking the JSON pointer of the element in hand for messages.
class Loader
{
  public:
    Loader(ControlPlane& control, std::string fileName)
        : m_control(control),
          m_file(std::move(fileName))
    {
    }

    void Load(const json& doc)
    {
        RequireObject(doc, "");
        CheckKeys(doc, "", {"tables", "multicast_groups", "clone_sessions", "registers"});
        ForEachItem(doc, "tables", [&](const json& item, const std::string& path) {
            LoadTableItem(item, path);
        });
        ForEachItem(doc, "multicast_groups", [&](const json& item, const std::string& path) {
            LoadGroup(item, path);
        });
        ForEachItem(doc, "clone_sessions", [&](const json& item, const std::string& path) {
            LoadCloneSession(item, path);
        });
        ForEachItem(doc, "registers", [&](const json& item, const std::string& path) {
            LoadRegister(item, path);
        });
    }

  private:
    [[noreturn]] void Fail(const std::string& path, const std::string& message) const
    {
        throw Error(fmt::format("{}: {}: {}", m_file, path.empty() ? "/" : path, message));
    }

    void RequireObject(const json& value, const std::string& path) const
    {
        if (!value.is_object())
        {
            Fail(path, "expected an object");
        }
    }

    void CheckKeys(const json& object, const std::string& path,
                   std::initializer_list<const char*> allowed) const
    {
        for (const auto& [key, value] : object.items())
        {
            bool known = false;
            std::string list;
            for (const char* name : allowed)
            {
                known |= key == name;
                list += list.empty() ? name : std::string(", ") + name;
            }
            if (!known)
            {
                Fail(path + "/" + key, fmt::format("unknown key (expected one of: {})", list));
            }
        }
    }

    template <typename F>
    void ForEachItem(const json& doc, const char* key, F&& f)
    {
        const auto it = doc.find(key);
        if (it == doc.end())
        {
            return;
        }
        const std::string path = std::string("/") + key;
        if (!it->is_array())
        {
            Fail(path, "expected an array");
        }
        for (size_t i = 0; i < it->size(); ++i)
        {
            const std::string itemPath = fmt::format("{}/{}", path, i);
            RequireObject((*it)[i], itemPath);
            f((*it)[i], itemPath);
        }
    }

    const json& Required(const json& object, const std::string& path, const char* key) const
    {
        const auto it = object.find(key);
        if (it == object.end())
        {
            Fail(path, fmt::format("missing \"{}\"", key));
        }
        return *it;
    }

    std::string String(const json& value, const std::string& path) const
    {
        if (!value.is_string())
        {
            Fail(path, "expected a string");
        }
        return value.get<std::string>();
    }

    uint64_t Unsigned(const json& value, const std::string& path) const
    {
        if (!IsNonNegativeInteger(value))
        {
            Fail(path, "expected a non-negative integer");
        }
        return value.get<uint64_t>();
    }

    uint32_t Uint32(const json& value, const std::string& path) const
    {
        const uint64_t v = Unsigned(value, path);
        if (v > UINT32_MAX)
        {
            Fail(path, "value does not fit in 32 bits");
        }
        return static_cast<uint32_t>(v);
    }

    BitString Value(const json& value, const std::string& path) const
    {
        if (IsNonNegativeInteger(value))
        {
            return BitString(value.get<uint64_t>());
        }
        if (value.is_string())
        {
            if (auto parsed = ParseValue(value.get<std::string>()))
            {
                return *parsed;
            }
        }
        Fail(path, fmt::format("cannot read {} as a value (non-negative integer, or a string: "
                               "decimal, 0x hex, 0b binary, IPv4, MAC or IPv6 address)",
                               value.dump()));
    }

    MatchValue Match(const json& value, const std::string& path) const
    {
        if (IsNonNegativeInteger(value))
        {
            return MatchValue::Exact(BitString(value.get<uint64_t>()));
        }
        if (!value.is_string())
        {
            Fail(path, fmt::format("cannot read {} as a match value", value.dump()));
        }
        try
        {
            return ParseMatchValue(value.get<std::string>());
        }
        catch (const Error& e)
        {
            Fail(path, e.what());
        }
    }

    // Runs a control-plane call; its error is reported at the item's path plus the part of
    // the item it blames. `match` is the item's match object, to name fields as written.
    template <typename F>
    void Apply(const std::string& path, const json* match, F&& call)
    {
        try
        {
            call();
        }
        catch (const Error& e)
        {
            std::string where = e.Where();
            const std::string prefix = "match/";
            if (match != nullptr && where.rfind(prefix, 0) == 0)
            {
                // The runtime names the field in full; point at the spelling the file used.
                const std::string field = where.substr(prefix.size());
                for (const auto& [key, value] : match->items())
                {
                    if (NameMatches(field, key))
                    {
                        where = prefix + key;
                    }
                }
            }
            Fail(where.empty() ? path : path + "/" + where, e.what());
        }
    }

    void LoadTableItem(const json& item, const std::string& path)
    {
        CheckKeys(item, path, {"table", "match", "action", "params", "priority", "default_action"});
        const std::string table = String(Required(item, path, "table"), path + "/table");
        const std::string action = String(Required(item, path, "action"), path + "/action");

        ActionArgs args;
        if (const auto it = item.find("params"); it != item.end())
        {
            RequireObject(*it, path + "/params");
            for (const auto& [name, value] : it->items())
            {
                args.emplace_back(name, Value(value, path + "/params/" + name));
            }
        }

        bool isDefault = false;
        if (const auto it = item.find("default_action"); it != item.end())
        {
            if (!it->is_boolean())
            {
                Fail(path + "/default_action", "expected true or false");
            }
            isDefault = it->get<bool>();
        }
        if (isDefault)
        {
            for (const char* key : {"match", "priority"})
            {
                if (item.contains(key))
                {
                    Fail(path + "/" + key, "a default action has no match key or priority");
                }
            }
            CheckTable(table, path);
            Apply(path, nullptr, [&] { m_control.SetDefaultAction(table, action, args); });
            return;
        }

        FieldMatches match;
        const json* matchJson = nullptr;
        if (const auto it = item.find("match"); it != item.end())
        {
            RequireObject(*it, path + "/match");
            matchJson = &*it;
            for (const auto& [name, value] : it->items())
            {
                match.emplace_back(name, Match(value, path + "/match/" + name));
            }
        }
        int32_t priority = 0;
        if (const auto it = item.find("priority"); it != item.end())
        {
            if (!it->is_number_integer() || it->get<int64_t>() < INT32_MIN ||
                it->get<int64_t>() > INT32_MAX)
            {
                Fail(path + "/priority", "expected a 32-bit integer");
            }
            priority = static_cast<int32_t>(it->get<int64_t>());
        }
        CheckTable(table, path);
        Apply(path, matchJson,
              [&] { m_control.AddEntry(table, match, action, args, priority); });
    }

    void CheckTable(const std::string& table, const std::string& path)
    {
        Apply(path + "/table", nullptr, [&] { m_control.GetTable(table); });
    }

    void LoadGroup(const json& item, const std::string& path)
    {
        CheckKeys(item, path, {"id", "ports", "replicas"});
        const uint32_t id = Uint32(Required(item, path, "id"), path + "/id");
        std::vector<Replica> replicas;
        const bool hasPorts = item.contains("ports");
        const bool hasReplicas = item.contains("replicas");
        if (hasPorts == hasReplicas)
        {
            Fail(path, "give exactly one of \"ports\" and \"replicas\"");
        }
        const char* key = hasPorts ? "ports" : "replicas";
        const json& list = item.at(key);
        const std::string listPath = path + "/" + key;
        if (!list.is_array())
        {
            Fail(listPath, "expected an array");
        }
        for (size_t i = 0; i < list.size(); ++i)
        {
            const std::string at = fmt::format("{}/{}", listPath, i);
            if (hasPorts)
            {
                replicas.push_back(Replica{Uint32(list[i], at), 0});
                continue;
            }
            RequireObject(list[i], at);
            CheckKeys(list[i], at, {"port", "rid"});
            Replica r;
            r.port = Uint32(Required(list[i], at, "port"), at + "/port");
            if (list[i].contains("rid"))
            {
                r.rid = Uint32(list[i].at("rid"), at + "/rid");
            }
            replicas.push_back(r);
        }
        Apply(path, nullptr, [&] { m_control.SetMulticastGroup(id, std::move(replicas)); });
    }

    void LoadCloneSession(const json& item, const std::string& path)
    {
        CheckKeys(item, path, {"id", "port"});
        const uint32_t id = Uint32(Required(item, path, "id"), path + "/id");
        const uint32_t port = Uint32(Required(item, path, "port"), path + "/port");
        Apply(path, nullptr, [&] { m_control.SetCloneSession(id, port); });
    }

    void LoadRegister(const json& item, const std::string& path)
    {
        CheckKeys(item, path, {"register", "index", "value", "values"});
        const std::string name = String(Required(item, path, "register"), path + "/register");
        Apply(path + "/register", nullptr, [&] { m_control.GetRegister(name); });
        uint64_t index = 0;
        if (item.contains("index"))
        {
            index = Unsigned(item.at("index"), path + "/index");
        }
        const bool one = item.contains("value");
        if (one == item.contains("values"))
        {
            Fail(path, "give exactly one of \"value\" and \"values\"");
        }
        if (one)
        {
            const BitString value = Value(item.at("value"), path + "/value");
            Apply(path, nullptr, [&] { m_control.WriteRegister(name, index, value); });
            return;
        }
        const json& values = item.at("values");
        if (!values.is_array())
        {
            Fail(path + "/values", "expected an array");
        }
        for (size_t i = 0; i < values.size(); ++i)
        {
            const std::string at = fmt::format("{}/values/{}", path, i);
            const BitString value = Value(values[i], at);
            try
            {
                m_control.WriteRegister(name, index + i, value);
            }
            catch (const Error& e)
            {
                Fail(at, e.what());
            }
        }
    }

    ControlPlane& m_control;
    std::string m_file;
};

} // namespace

void
LoadEntriesJson(ControlPlane& control, const json& doc, const std::string& fileName)
{
    Loader(control, fileName).Load(doc);
}

} // namespace incsim::p4rt
