#ifndef INCSIM_P4RT_CONTROL_PLANE_H
#define INCSIM_P4RT_CONTROL_PLANE_H

// The control-plane API that one program instance (one switch) exposes, by P4 name, as a
// controller would drive a hardware switch: tables, registers and counters, plus the packet
// replication engine's multicast groups and clone sessions.
//
// Names: every object is registered under its fully qualified name ("MyIngress.ipv4_lpm")
// and can be addressed by any unambiguous dot-separated suffix ("ipv4_lpm"). The same holds
// for a table's key fields and actions. Errors (p4rt::Error) name the table, field, action or
// parameter at fault.
//
// Ownership: the pipeline owns its tables and externs and registers them here; they must
// outlive this object.

#include "p4/runtime/bit-string.h"
#include "p4/runtime/externs.h"
#include "p4/runtime/table.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace incsim::p4rt
{

/// One copy made by a multicast group: egress port and replication id (egress_rid).
struct Replica
{
    uint32_t port = 0;
    uint32_t rid = 0;

    bool operator==(const Replica& other) const { return port == other.port && rid == other.rid; }
};

using FieldMatches = std::vector<std::pair<std::string, MatchValue>>;
using ActionArgs = std::vector<std::pair<std::string, BitString>>;

class ControlPlane
{
  public:
    // Registration, by the pipeline at construction. Throws Error on a duplicate name.
    void RegisterTable(Table& table);
    void RegisterRegister(RegisterBase& reg);
    void RegisterCounter(CounterArray& counter);

    // Lookup by full or unambiguous short name; throws Error listing the candidates.
    Table& GetTable(const std::string& name) const;
    RegisterBase& GetRegister(const std::string& name) const;
    CounterArray& GetCounter(const std::string& name) const;

    /// Full names, sorted.
    std::vector<std::string> TableNames() const;

    // Table entries by P4 names. Key fields not listed default to a wildcard if they are
    // lpm, ternary or optional; exact fields must be given. Priorities matter only for tables
    // with ternary/optional fields: the higher number wins (see table.h).
    void AddEntry(const std::string& table, const FieldMatches& match, const std::string& action,
                  const ActionArgs& args = {}, int32_t priority = 0);
    void ModifyEntry(const std::string& table, const FieldMatches& match,
                     const std::string& action, const ActionArgs& args = {},
                     int32_t priority = 0);
    void DeleteEntry(const std::string& table, const FieldMatches& match, int32_t priority = 0);
    void SetDefaultAction(const std::string& table, const std::string& action,
                          const ActionArgs& args = {});

    // Registers and counters by name.
    BitString ReadRegister(const std::string& name, size_t index) const;
    void WriteRegister(const std::string& name, size_t index, const BitString& value);

    // Packet replication engine. Multicast group 0 means "no multicast" in v1model, so group
    // ids are 1..65535.
    /// Creates or replaces a multicast group.
    void SetMulticastGroup(uint32_t group, std::vector<Replica> replicas);
    void DeleteMulticastGroup(uint32_t group);
    /// The replicas of a group, nullptr if it does not exist. Data path: O(1).
    const std::vector<Replica>* MulticastGroup(uint32_t group) const
    {
        return group < m_groups.size() && m_groups[group].exists ? &m_groups[group].replicas
                                                                 : nullptr;
    }
    std::vector<uint32_t> MulticastGroupIds() const;

    /// Creates or replaces a clone (mirror) session sending copies to `port`.
    void SetCloneSession(uint32_t session, uint32_t port);
    void DeleteCloneSession(uint32_t session);
    std::optional<uint32_t> CloneSessionPort(uint32_t session) const;

  private:
    struct Group
    {
        bool exists = false;
        std::vector<Replica> replicas;
    };

    std::vector<MatchValue> BuildKey(const Table& table, const FieldMatches& match) const;
    std::vector<BitString> BuildArgs(const Table& table, const ActionSpec& action,
                                     const ActionArgs& args) const;

    std::map<std::string, Table*> m_tables;
    std::map<std::string, RegisterBase*> m_registers;
    std::map<std::string, CounterArray*> m_counters;
    std::vector<Group> m_groups;  // indexed by group id (bit<16> in v1model)
    std::map<uint32_t, uint32_t> m_cloneSessions;
};

} // namespace incsim::p4rt

#endif
