#ifndef INCSIM_CORE_REGISTRY_H
#define INCSIM_CORE_REGISTRY_H

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace incsim
{

/// Name -> entry table through which components (protocols, topology generators, P4 programs)
/// make themselves known. The core looks entries up by name and never names them itself.
template <typename Entry>
class Registry
{
  public:
    /// Registering the same name twice replaces the entry, so registration is idempotent.
    void Add(const std::string& name, Entry entry) { m_entries[name] = std::move(entry); }

    const Entry* Find(const std::string& name) const
    {
        auto it = m_entries.find(name);
        return it == m_entries.end() ? nullptr : &it->second;
    }

    const Entry& Get(const std::string& name) const
    {
        const Entry* entry = Find(name);
        if (entry == nullptr)
        {
            throw std::out_of_range("unknown registry entry '" + name + "'");
        }
        return *entry;
    }

    /// Names in sorted order, so listings and error messages are deterministic.
    std::vector<std::string> Names() const
    {
        std::vector<std::string> names;
        names.reserve(m_entries.size());
        for (const auto& [name, entry] : m_entries)
        {
            names.push_back(name);
        }
        return names;
    }

  private:
    std::map<std::string, Entry> m_entries;
};

} // namespace incsim

#endif
