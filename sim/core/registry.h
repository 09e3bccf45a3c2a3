#ifndef INCSIM_CORE_REGISTRY_H
#define INCSIM_CORE_REGISTRY_H

#include <map>
#include <optional>
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

    void Remove(const std::string& name) { m_entries.erase(name); }

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

/// Registers an entry for this object's lifetime, then restores whatever the name held before
/// (nothing, or an entry it replaced): a test's fake components are gone for the next test.
template <typename Entry>
class ScopedRegistration
{
  public:
    ScopedRegistration(Registry<Entry>& registry, std::string name, Entry entry)
        : m_registry(registry),
          m_name(std::move(name))
    {
        if (const Entry* previous = registry.Find(m_name))
        {
            m_previous = *previous;
        }
        registry.Add(m_name, std::move(entry));
    }

    ~ScopedRegistration()
    {
        if (m_previous)
        {
            m_registry.Add(m_name, std::move(*m_previous));
        }
        else
        {
            m_registry.Remove(m_name);
        }
    }

    ScopedRegistration(const ScopedRegistration&) = delete;
    ScopedRegistration& operator=(const ScopedRegistration&) = delete;

  private:
    Registry<Entry>& m_registry;
    std::string m_name;
    std::optional<Entry> m_previous;
};

} // namespace incsim

#endif
