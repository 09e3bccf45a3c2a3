#ifndef INCSIM_P4RT_TABLE_H
#define INCSIM_P4RT_TABLE_H

// Match-action tables for generated pipelines.
//
// Data path: generated code packs the key (each field big-endian in ceil(width/8) bytes, fields
// in declaration order) and calls Lookup, which returns the entry to run: never null, the
// default action on a miss. Lookup does not allocate.
//
// Lookup structures (chosen from the schema):
//  - all fields exact: one open-addressing hash index over the key bytes;
//  - one lpm field, the rest exact: one hash index per prefix length present, probed from the
//    longest down; the first hit wins (cost grows with distinct prefix lengths, not entries);
//  - any ternary/optional field: tuple-space search. One hash index per distinct mask; groups
//    are visited best-first and the search stops as soon as no later group can beat the best
//    hit (cost grows with distinct masks, not entries).
//
// Priority convention (P4Runtime, and BMv2 as driven by P4Runtime and p4c's STF runner): for
// tables with ternary/optional fields, the HIGHER numeric priority wins. BMv2's own CLI uses
// the inverse (lower wins); p4c's STF runner converts, and so does incsim's. Ties go to the
// longer prefix of the table's lpm field (if any), then to the entry added first. Tables
// without ternary/optional fields ignore priorities.
//
// Range match is not supported (the schema is rejected).

#include "p4/runtime/bit-string.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace incsim::p4rt
{

using ActionId = uint32_t;

enum class MatchKind : uint8_t
{
    Exact,
    Lpm,
    Ternary,
    Optional,  // v1model `optional`: exact or wildcard
};

const char* MatchKindName(MatchKind kind);

/// One key field's match in a control-plane request.
class MatchValue
{
  public:
    enum class Kind : uint8_t
    {
        Exact,
        Lpm,
        Ternary,
        Wildcard,
    };

    MatchValue() = default;
    static MatchValue Exact(BitString value);
    static MatchValue Lpm(BitString value, unsigned prefixLen);
    static MatchValue Ternary(BitString value, BitString mask);
    /// Matches anything: lpm /0, ternary mask 0, optional omitted.
    static MatchValue Wildcard();

    Kind GetKind() const { return m_kind; }
    const BitString& Value() const { return m_value; }
    const BitString& Mask() const { return m_mask; }
    unsigned PrefixLen() const { return m_prefixLen; }

    /// "0xa000000/8", "0x5&&&0xf", "0x2a", "*".
    std::string ToString() const;

    bool operator==(const MatchValue& other) const;

  private:
    Kind m_kind = Kind::Wildcard;
    BitString m_value;
    BitString m_mask;
    unsigned m_prefixLen = 0;
};

struct KeyFieldSpec
{
    std::string name;  // as the control plane names it, e.g. "hdr.ipv4.dstAddr"
    unsigned width = 0;  // bits, >= 1
    MatchKind kind = MatchKind::Exact;
};

struct ActionParamSpec
{
    std::string name;
    unsigned width = 0;  // bits, >= 1
};

enum class ActionScope : uint8_t
{
    TableAndDefault,
    TableOnly,  // @tableonly
    DefaultOnly,  // @defaultonly
};

struct ActionSpec
{
    ActionId id = 0;
    std::string name;  // e.g. "MyIngress.set_nhop"
    std::vector<ActionParamSpec> params;
    ActionScope scope = ActionScope::TableAndDefault;
};

/// An entry given in the program (`const entries` or `entries`).
struct ConstEntrySpec
{
    std::vector<MatchValue> key;  // one per key field, in order
    ActionId action = 0;
    std::vector<BitString> args;
    /// Unset: ternary tables rank const entries by their order in the program (first wins).
    std::optional<int32_t> priority;
};

struct TableSchema
{
    std::string name;  // fully qualified, e.g. "MyIngress.ipv4_lpm"
    std::vector<KeyFieldSpec> keys;  // may be empty: a keyless table always runs its default
    std::vector<ActionSpec> actions;
    ActionId defaultAction = 0;
    std::vector<BitString> defaultArgs;
    bool defaultIsConst = false;
    size_t size = 1024;  // maximum number of entries
    std::vector<ConstEntrySpec> entries;
    /// `const entries`: the control plane may not add, modify or delete entries.
    bool entriesAreConst = false;
};

/// Action arguments are held inline as 64-bit words: a parameter of up to 64 bits takes one
/// word, a wider one ceil(width/64) words, most significant first. ActionSpec order.
constexpr size_t kMaxActionWords = 8;
/// Longest packed key a table accepts (a lookup masks the key on the stack).
constexpr size_t kMaxKeyBytes = 128;

/// What a lookup returns: the action to run and its arguments.
struct TableEntry
{
    uint64_t args[kMaxActionWords] = {};
    ActionId action = 0;
    bool hit = false;  // false for the default action
    int32_t priority = 0;
};

/// An installed entry, as read back by the control plane.
struct EntryInfo
{
    std::vector<MatchValue> key;
    int32_t priority = 0;
    ActionId action = 0;
    std::vector<BitString> args;
};

class Table
{
  public:
    /// Validates the schema and installs its entries; throws Error on a malformed schema.
    explicit Table(TableSchema schema);
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    const TableSchema& Schema() const { return m_schema; }
    const std::string& Name() const { return m_schema.name; }
    size_t KeyBytes() const { return m_keyBytes; }
    /// Byte offset of key field `i` in the packed key.
    size_t KeyFieldOffset(size_t i) const { return m_fieldOffsets[i]; }
    /// Word offset of parameter `param` in TableEntry::args for action `action`.
    size_t ParamWordOffset(ActionId action, size_t param) const;

    /// The entry for a packed key of KeyBytes() bytes; the default action on a miss. The
    /// pointer stays valid until the next change to the table.
    const TableEntry* Lookup(const uint8_t* key) const;

    // Control plane. Each throws Error, naming the table and the offending field, parameter
    // or action, and leaves the table unchanged.
    void Add(const std::vector<MatchValue>& key, ActionId action,
             const std::vector<BitString>& args, int32_t priority = 0);
    /// Replaces the action of the entry with this key (and priority, for ternary tables).
    void Modify(const std::vector<MatchValue>& key, ActionId action,
                const std::vector<BitString>& args, int32_t priority = 0);
    void Delete(const std::vector<MatchValue>& key, int32_t priority = 0);
    void Clear();
    void SetDefault(ActionId action, const std::vector<BitString>& args);
    /// Back to the program's default action.
    void ResetDefault();
    const TableEntry& DefaultEntry() const { return m_default; }

    size_t Size() const { return m_count; }
    /// All entries, oldest first.
    std::vector<EntryInfo> Entries() const;

    /// The action with this id; nullptr if the table has no such action.
    const ActionSpec* FindAction(ActionId id) const;
    /// The action named "MyIngress.set_nhop" or, if unambiguous, "set_nhop". Throws Error
    /// (listing the table's actions) if there is none or the short name is ambiguous.
    const ActionSpec& ActionByName(const std::string& name) const;
    /// Index of the key field with this name (full, or unambiguous suffix after a '.').
    /// Throws Error listing the key fields if there is none.
    size_t KeyFieldByName(const std::string& name) const;

    /// True if any field is ternary/optional, i.e. priorities matter.
    bool UsesPriority() const { return m_usesPriority; }

  private:
    struct NormalKey;
    struct Group;

    enum class Layout : uint8_t
    {
        Exact,
        Lpm,
        TupleSpace,
    };

    struct Rank
    {
        int32_t priority = 0;
        uint32_t prefixLen = 0;
        uint64_t seq = 0;
    };
    static bool Better(const Rank& a, const Rank& b);

    /// Lookup's general case (several masks or prefix lengths), kept out of line so that the
    /// common single-probe cases do not pay for its stack frame.
    [[gnu::noinline]] const TableEntry* LookupTupleSpace(const uint64_t* keyWords) const;
    void ValidateSchema();
    NormalKey Normalize(const std::vector<MatchValue>& key, int32_t priority) const;
    void Encode(const ActionSpec& action, const std::vector<BitString>& args,
                TableEntry& entry) const;
    const ActionSpec& ResolveAction(ActionId id, bool forDefault) const;
    void CheckMutable() const;
    void Insert(const NormalKey& key, const TableEntry& entry);
    uint32_t FindSlot(const NormalKey& key) const;
    void Remove(uint32_t slot);
    void ReorderGroup(uint32_t group);
    void RecomputeGroupBest(uint32_t group);
    Rank SlotRank(uint32_t slot) const;
    const uint8_t* SlotKey(uint32_t slot) const { return &m_keyArena[size_t(slot) * m_keyBytes]; }
    std::string Where(const std::string& what) const;

    TableSchema m_schema;
    Layout m_layout = Layout::Exact;
    bool m_usesPriority = false;
    size_t m_keyBytes = 0;
    std::vector<size_t> m_fieldOffsets;
    std::optional<size_t> m_lpmField;
    std::map<ActionId, size_t> m_actionIndex;
    std::vector<std::vector<size_t>> m_paramWordOffsets;  // per action index

    TableEntry m_default;

    // Entry slots: parallel arrays indexed by slot; freed slots are reused LIFO.
    std::vector<TableEntry> m_entries;
    std::vector<uint8_t> m_keyArena;  // masked key bytes, KeyBytes() per slot
    std::vector<uint32_t> m_slotGroup;
    std::vector<uint32_t> m_slotNext;  // next entry with the same masked key, worse rank
    std::vector<uint32_t> m_slotPrefix;
    std::vector<uint64_t> m_slotSeq;
    std::vector<uint8_t> m_slotLive;
    std::vector<uint32_t> m_freeSlots;
    size_t m_count = 0;
    uint64_t m_nextSeq = 0;

    // One group per distinct mask; m_order lists live groups best-first.
    std::vector<Group> m_groups;
    std::vector<uint32_t> m_freeGroups;
    std::map<std::vector<uint8_t>, uint32_t> m_groupByMask;
    std::vector<uint32_t> m_order;
};

} // namespace incsim::p4rt

#endif
