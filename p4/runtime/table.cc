#include "p4/runtime/table.h"

#include "p4/runtime/error.h"
#include "p4/runtime/key-index.h"
#include "p4/runtime/names.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace incsim::p4rt
{

const char*
MatchKindName(MatchKind kind)
{
    switch (kind)
    {
    case MatchKind::Exact:
        return "exact";
    case MatchKind::Lpm:
        return "lpm";
    case MatchKind::Ternary:
        return "ternary";
    case MatchKind::Optional:
        return "optional";
    }
    return "?";
}

MatchValue
MatchValue::Exact(BitString value)
{
    MatchValue m;
    m.m_kind = Kind::Exact;
    m.m_value = std::move(value);
    return m;
}

MatchValue
MatchValue::Lpm(BitString value, unsigned prefixLen)
{
    MatchValue m;
    m.m_kind = Kind::Lpm;
    m.m_value = std::move(value);
    m.m_prefixLen = prefixLen;
    return m;
}

MatchValue
MatchValue::Ternary(BitString value, BitString mask)
{
    MatchValue m;
    m.m_kind = Kind::Ternary;
    m.m_value = std::move(value);
    m.m_mask = std::move(mask);
    return m;
}

MatchValue
MatchValue::Wildcard()
{
    return MatchValue();
}

std::string
MatchValue::ToString() const
{
    switch (m_kind)
    {
    case Kind::Exact:
        return m_value.ToHex();
    case Kind::Lpm:
        return fmt::format("{}/{}", m_value.ToHex(), m_prefixLen);
    case Kind::Ternary:
        return fmt::format("{}&&&{}", m_value.ToHex(), m_mask.ToHex());
    case Kind::Wildcard:
        return "*";
    }
    return "?";
}

bool
MatchValue::operator==(const MatchValue& other) const
{
    return m_kind == other.m_kind && m_value == other.m_value && m_mask == other.m_mask &&
           m_prefixLen == other.m_prefixLen;
}

/// A match key in table form: masked value and mask bytes in the packed-key layout.
struct Table::NormalKey
{
    std::vector<uint8_t> value;
    std::vector<uint8_t> mask;
    uint32_t prefixLen = 0;  // of the lpm field, if any
    int32_t priority = 0;
};

struct Table::Group
{
    std::vector<uint8_t> mask;
    std::vector<uint64_t> maskWords;  // the mask in 8-byte words, zero-padded, for Lookup
    KeyIndex index;  // masked key -> best entry with that key; worse ones chain via m_slotNext
    Rank best;
    size_t count = 0;
};

namespace
{

constexpr uint32_t kNone = KeyIndex::kNone;

size_t
WordsFor(unsigned width)
{
    return width <= 64 ? 1 : (width + 63) / 64;
}

void
SetPrefixMask(uint8_t* mask, size_t nbytes, unsigned width, unsigned prefixLen)
{
    std::fill(mask, mask + nbytes, 0);
    const size_t first = nbytes * 8 - width;  // bit index (from the MSB) of the field's top bit
    for (size_t k = 0; k < prefixLen; ++k)
    {
        const size_t bit = first + k;
        mask[bit / 8] |= static_cast<uint8_t>(0x80 >> (bit % 8));
    }
}

unsigned
CountOnes(const uint8_t* bytes, size_t n)
{
    unsigned ones = 0;
    for (size_t i = 0; i < n; ++i)
    {
        ones += static_cast<unsigned>(__builtin_popcount(bytes[i]));
    }
    return ones;
}

} // namespace

Table::Table(TableSchema schema)
    : m_schema(std::move(schema))
{
    ValidateSchema();

    const auto& entries = m_schema.entries;
    for (size_t i = 0; i < entries.size(); ++i)
    {
        const ConstEntrySpec& spec = entries[i];
        // The program lists entries best-first; an explicit priority overrides that.
        const int32_t priority =
            spec.priority.value_or(static_cast<int32_t>(entries.size() - i));
        try
        {
            const NormalKey key = Normalize(spec.key, priority);
            if (FindSlot(key) != kNone)
            {
                throw Error(Where("duplicate entry in the program's entry list"));
            }
            TableEntry entry;
            Encode(ResolveAction(spec.action, false), spec.args, entry);
            entry.hit = true;
            entry.priority = key.priority;
            Insert(key, entry);
        }
        catch (const Error& e)
        {
            throw Error(fmt::format("{} (program entry {})", e.what(), i), e.Where());
        }
    }
}

Table::~Table() = default;

std::string
Table::Where(const std::string& what) const
{
    return fmt::format("table {}: {}", m_schema.name, what);
}

void
Table::ValidateSchema()
{
    std::set<std::string> names;
    size_t offset = 0;
    bool ternary = false;
    for (size_t i = 0; i < m_schema.keys.size(); ++i)
    {
        const KeyFieldSpec& field = m_schema.keys[i];
        if (field.width == 0)
        {
            throw Error(Where(fmt::format("key field {} has width 0", field.name)));
        }
        if (!names.insert(field.name).second)
        {
            throw Error(Where(fmt::format("key field {} appears twice", field.name)));
        }
        if (field.kind == MatchKind::Lpm)
        {
            if (m_lpmField)
            {
                throw Error(Where("more than one lpm key field"));
            }
            m_lpmField = i;
        }
        ternary |= field.kind == MatchKind::Ternary || field.kind == MatchKind::Optional;
        m_fieldOffsets.push_back(offset);
        offset += BytesForBits(field.width);
    }
    m_keyBytes = offset;
    if (m_keyBytes > kMaxKeyBytes)
    {
        throw Error(Where(fmt::format("key of {} bytes exceeds the limit of {}", m_keyBytes,
                                      kMaxKeyBytes)));
    }
    m_usesPriority = ternary;
    m_layout = ternary ? Layout::TupleSpace : (m_lpmField ? Layout::Lpm : Layout::Exact);

    names.clear();
    for (size_t a = 0; a < m_schema.actions.size(); ++a)
    {
        const ActionSpec& action = m_schema.actions[a];
        if (!m_actionIndex.emplace(action.id, a).second)
        {
            throw Error(Where(fmt::format("action id {} used twice", action.id)));
        }
        if (!names.insert(action.name).second)
        {
            throw Error(Where(fmt::format("action {} listed twice", action.name)));
        }
        std::vector<size_t> offsets;
        size_t words = 0;
        std::set<std::string> params;
        for (const ActionParamSpec& param : action.params)
        {
            if (param.width == 0 || !params.insert(param.name).second)
            {
                throw Error(Where(fmt::format("action {}: parameter {} has width 0 or is repeated",
                                              action.name, param.name)));
            }
            offsets.push_back(words);
            words += WordsFor(param.width);
        }
        if (words > kMaxActionWords)
        {
            throw Error(Where(fmt::format("action {}: parameters need {} words, the limit is {}",
                                          action.name, words, kMaxActionWords)));
        }
        m_paramWordOffsets.push_back(std::move(offsets));
    }

    const ActionSpec& def = ResolveAction(m_schema.defaultAction, true);
    Encode(def, m_schema.defaultArgs, m_default);
    m_default.hit = false;

    if (m_schema.entries.size() > m_schema.size)
    {
        throw Error(Where(fmt::format("{} program entries exceed the table size {}",
                                      m_schema.entries.size(), m_schema.size)));
    }
}

size_t
Table::ParamWordOffset(ActionId action, size_t param) const
{
    return m_paramWordOffsets.at(m_actionIndex.at(action)).at(param);
}

const ActionSpec*
Table::FindAction(ActionId id) const
{
    const auto it = m_actionIndex.find(id);
    return it == m_actionIndex.end() ? nullptr : &m_schema.actions[it->second];
}

const ActionSpec&
Table::ActionByName(const std::string& name) const
{
    const auto& actions = m_schema.actions;
    const auto nameAt = [&](size_t i) -> const std::string& { return actions[i].name; };
    const std::vector<size_t> found = MatchNames(actions.size(), nameAt, name);
    if (found.size() == 1)
    {
        return actions[found[0]];
    }
    if (found.empty())
    {
        throw Error(Where(fmt::format("no action {}; its actions are: {}", name,
                                      JoinNames(actions.size(), nameAt))),
                    "action");
    }
    throw Error(Where(fmt::format("action name {} is ambiguous: {}", name,
                                  JoinNames(actions.size(), nameAt, found))),
                "action");
}

size_t
Table::KeyFieldByName(const std::string& name) const
{
    const auto& keys = m_schema.keys;
    const auto nameAt = [&](size_t i) -> const std::string& { return keys[i].name; };
    const std::vector<size_t> found = MatchNames(keys.size(), nameAt, name);
    if (found.size() == 1)
    {
        return found[0];
    }
    const std::string where = "match/" + name;
    if (found.empty())
    {
        throw Error(Where(fmt::format("no key field {}; its key fields are: {}", name,
                                      JoinNames(keys.size(), nameAt))),
                    where);
    }
    throw Error(Where(fmt::format("key field name {} is ambiguous: {}", name,
                                  JoinNames(keys.size(), nameAt, found))),
                where);
}

const ActionSpec&
Table::ResolveAction(ActionId id, bool forDefault) const
{
    const ActionSpec* action = FindAction(id);
    if (action == nullptr)
    {
        throw Error(Where(fmt::format("action id {} is not one of the table's actions", id)),
                    "action");
    }
    if (forDefault && action->scope == ActionScope::TableOnly)
    {
        throw Error(Where(fmt::format("action {} is @tableonly; it cannot be the default action",
                                      action->name)),
                    "action");
    }
    if (!forDefault && action->scope == ActionScope::DefaultOnly)
    {
        throw Error(Where(fmt::format("action {} is @defaultonly; it cannot be used in an entry",
                                      action->name)),
                    "action");
    }
    return *action;
}

void
Table::Encode(const ActionSpec& action, const std::vector<BitString>& args,
              TableEntry& entry) const
{
    if (args.size() != action.params.size())
    {
        const auto nameAt = [&](size_t i) -> const std::string& { return action.params[i].name; };
        throw Error(Where(fmt::format("action {} takes {} parameter(s) ({}), got {}", action.name,
                                      action.params.size(),
                                      JoinNames(action.params.size(), nameAt), args.size())),
                    "params");
    }
    TableEntry encoded;
    encoded.action = action.id;
    size_t word = 0;
    for (size_t i = 0; i < args.size(); ++i)
    {
        const ActionParamSpec& param = action.params[i];
        if (!args[i].FitsIn(param.width))
        {
            throw Error(Where(fmt::format("action {}: parameter {}: value {} is wider than {} bits",
                                          action.name, param.name, args[i].ToHex(), param.width)),
                        "params/" + param.name);
        }
        const size_t words = WordsFor(param.width);
        uint8_t bytes[kMaxActionWords * 8];
        args[i].Store(bytes, words * 8);
        for (size_t w = 0; w < words; ++w)
        {
            encoded.args[word++] = LoadBigEndian(bytes + w * 8, 8);
        }
    }
    entry = encoded;
}

Table::NormalKey
Table::Normalize(const std::vector<MatchValue>& key, int32_t priority) const
{
    const auto& fields = m_schema.keys;
    if (fields.empty())
    {
        throw Error(Where("the table has no key; only its default action can be set"), "match");
    }
    if (key.size() != fields.size())
    {
        const auto nameAt = [&](size_t i) -> const std::string& { return fields[i].name; };
        throw Error(Where(fmt::format("expected {} key field(s) ({}), got {}", fields.size(),
                                      JoinNames(fields.size(), nameAt), key.size())),
                    "match");
    }
    NormalKey nk;
    nk.value.assign(m_keyBytes, 0);
    nk.mask.assign(m_keyBytes, 0);
    nk.priority = m_usesPriority ? priority : 0;
    for (size_t i = 0; i < fields.size(); ++i)
    {
        const KeyFieldSpec& field = fields[i];
        const MatchValue& match = key[i];
        const size_t off = m_fieldOffsets[i];
        const size_t nbytes = BytesForBits(field.width);
        uint8_t* value = &nk.value[off];
        uint8_t* mask = &nk.mask[off];
        const std::string where = "match/" + field.name;
        const auto fail = [&](const std::string& what) {
            throw Error(Where(fmt::format("field {} ({} bits, {}): {}", field.name, field.width,
                                          MatchKindName(field.kind), what)),
                        where);
        };
        const auto kindName = [&]() -> const char* {
            switch (match.GetKind())
            {
            case MatchValue::Kind::Exact:
                return "an exact";
            case MatchValue::Kind::Lpm:
                return "an lpm";
            case MatchValue::Kind::Ternary:
                return "a ternary";
            case MatchValue::Kind::Wildcard:
                return "a wildcard";
            }
            return "a";
        };
        const bool allowed = [&] {
            switch (field.kind)
            {
            case MatchKind::Exact:
                return match.GetKind() == MatchValue::Kind::Exact;
            case MatchKind::Lpm:
                return match.GetKind() != MatchValue::Kind::Ternary;
            case MatchKind::Ternary:
                return true;
            case MatchKind::Optional:
                return match.GetKind() == MatchValue::Kind::Exact ||
                       match.GetKind() == MatchValue::Kind::Wildcard;
            }
            return false;
        }();
        if (!allowed)
        {
            fail(fmt::format("{} match is not allowed", kindName()));
        }
        if (!match.Value().FitsIn(field.width))
        {
            fail(fmt::format("value {} is wider than the field", match.Value().ToHex()));
        }
        match.Value().Store(value, nbytes);
        switch (match.GetKind())
        {
        case MatchValue::Kind::Exact:
            SetPrefixMask(mask, nbytes, field.width, field.width);
            break;
        case MatchValue::Kind::Lpm:
            if (match.PrefixLen() > field.width)
            {
                fail(fmt::format("prefix length {} exceeds the field width", match.PrefixLen()));
            }
            SetPrefixMask(mask, nbytes, field.width, match.PrefixLen());
            break;
        case MatchValue::Kind::Ternary:
            if (!match.Mask().FitsIn(field.width))
            {
                fail(fmt::format("mask {} is wider than the field", match.Mask().ToHex()));
            }
            match.Mask().Store(mask, nbytes);
            break;
        case MatchValue::Kind::Wildcard:
            break;
        }
        for (size_t b = 0; b < nbytes; ++b)
        {
            if ((value[b] & ~mask[b]) != 0)
            {
                fail(fmt::format("value {} has bits set outside {}", match.Value().ToHex(),
                                 match.GetKind() == MatchValue::Kind::Ternary
                                     ? "the mask " + match.Mask().ToHex()
                                     : fmt::format("the /{} prefix", match.PrefixLen())));
            }
        }
        if (field.kind == MatchKind::Lpm)
        {
            nk.prefixLen = CountOnes(mask, nbytes);
        }
    }
    return nk;
}

bool
Table::Better(const Rank& a, const Rank& b)
{
    if (a.priority != b.priority)
    {
        return a.priority > b.priority;
    }
    if (a.prefixLen != b.prefixLen)
    {
        return a.prefixLen > b.prefixLen;
    }
    return a.seq < b.seq;
}

Table::Rank
Table::SlotRank(uint32_t slot) const
{
    return Rank{m_entries[slot].priority, m_slotPrefix[slot], m_slotSeq[slot]};
}

const TableEntry*
Table::Lookup(const uint8_t* key) const
{
    const size_t n = m_keyBytes;
    if (m_layout == Layout::Exact)
    {
        if (m_count == 0)
        {
            return &m_default;
        }
        const Group& group = m_groups[m_order.front()];
        const uint32_t slot = group.index.Find(key, HashKey(key, n), m_keyArena.data(), n);
        return slot == kNone ? &m_default : &m_entries[slot];
    }

    const size_t words = (n + 7) / 8;
    uint64_t keyWords[kMaxKeyBytes / 8];
    keyWords[words - 1] = 0;
    std::memcpy(keyWords, key, n);
    if (m_order.size() == 1 || (m_layout == Layout::Lpm && m_order.size() <= 4))
    {
        // A few prefix lengths (host routes, aggregated routes): probe them longest first; the
        // first hit is the longest match. Batching (below) only pays with more groups.
        uint64_t masked[kMaxKeyBytes / 8];
        const auto* bytes = reinterpret_cast<const uint8_t*>(masked);
        for (const uint32_t groupId : m_order)
        {
            const Group& group = m_groups[groupId];
            for (size_t w = 0; w < words; ++w)
            {
                masked[w] = keyWords[w] & group.maskWords[w];
            }
            const uint32_t slot =
                group.index.Find(bytes, HashKey(bytes, n), m_keyArena.data(), n);
            if (slot != kNone)
            {
                return &m_entries[slot];
            }
        }
        return &m_default;
    }

    return LookupTupleSpace(keyWords);
}

const TableEntry*
Table::LookupTupleSpace(const uint64_t* keyWords) const
{
    const size_t n = m_keyBytes;
    const size_t words = (n + 7) / 8;
    // Masks are applied a word at a time on padded copies, and probes go in batches: first
    // every group's hash and a prefetch of its bucket, then the probes, so that the cache
    // misses of up to kBatch groups overlap instead of queueing.
    constexpr size_t kBatch = 8;
    uint64_t masked[kBatch][kMaxKeyBytes / 8];
    uint64_t hashes[kBatch];

    uint32_t best = kNone;
    Rank bestRank;
    const size_t groups = m_order.size();
    for (size_t start = 0; start < groups; start += kBatch)
    {
        if (best != kNone && !Better(m_groups[m_order[start]].best, bestRank))
        {
            break;
        }
        const size_t count = std::min(kBatch, groups - start);
        for (size_t b = 0; b < count; ++b)
        {
            const Group& group = m_groups[m_order[start + b]];
            const uint64_t* mask = group.maskWords.data();
            for (size_t w = 0; w < words; ++w)
            {
                masked[b][w] = keyWords[w] & mask[w];
            }
            hashes[b] = HashKey(reinterpret_cast<const uint8_t*>(masked[b]), n);
            group.index.Prefetch(hashes[b]);
        }
        for (size_t b = 0; b < count; ++b)
        {
            const Group& group = m_groups[m_order[start + b]];
            // Groups come best-first: once one cannot beat the hit in hand, none after it can.
            if (best != kNone && !Better(group.best, bestRank))
            {
                return &m_entries[best];
            }
            const uint32_t slot = group.index.Find(reinterpret_cast<const uint8_t*>(masked[b]),
                                                   hashes[b], m_keyArena.data(), n);
            if (slot != kNone)
            {
                const Rank rank = SlotRank(slot);
                if (best == kNone || Better(rank, bestRank))
                {
                    best = slot;
                    bestRank = rank;
                }
            }
        }
    }
    return best == kNone ? &m_default : &m_entries[best];
}

uint32_t
Table::FindSlot(const NormalKey& key) const
{
    const auto it = m_groupByMask.find(key.mask);
    if (it == m_groupByMask.end())
    {
        return kNone;
    }
    const Group& group = m_groups[it->second];
    uint32_t slot =
        group.index.Find(key.value.data(), HashKey(key.value.data(), m_keyBytes), m_keyArena.data(),
                         m_keyBytes);
    while (slot != kNone && m_entries[slot].priority != key.priority)
    {
        slot = m_slotNext[slot];
    }
    return slot;
}

void
Table::Insert(const NormalKey& key, const TableEntry& entry)
{
    uint32_t g;
    const auto found = m_groupByMask.find(key.mask);
    if (found != m_groupByMask.end())
    {
        g = found->second;
    }
    else
    {
        if (!m_freeGroups.empty())
        {
            g = m_freeGroups.back();
            m_freeGroups.pop_back();
        }
        else
        {
            g = static_cast<uint32_t>(m_groups.size());
            m_groups.emplace_back();
        }
        m_groups[g].mask = key.mask;
        m_groups[g].maskWords.assign((m_keyBytes + 7) / 8, 0);
        std::memcpy(m_groups[g].maskWords.data(), key.mask.data(), m_keyBytes);
        m_groups[g].count = 0;
        m_groupByMask.emplace(key.mask, g);
    }

    uint32_t slot;
    if (!m_freeSlots.empty())
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    else
    {
        slot = static_cast<uint32_t>(m_entries.size());
        m_entries.emplace_back();
        m_keyArena.resize(m_keyArena.size() + m_keyBytes);
        m_slotGroup.push_back(0);
        m_slotNext.push_back(kNone);
        m_slotPrefix.push_back(0);
        m_slotSeq.push_back(0);
        m_slotLive.push_back(0);
    }
    m_entries[slot] = entry;
    std::copy(key.value.begin(), key.value.end(), m_keyArena.begin() + size_t(slot) * m_keyBytes);
    m_slotGroup[slot] = g;
    m_slotNext[slot] = kNone;
    m_slotPrefix[slot] = key.prefixLen;
    m_slotSeq[slot] = m_nextSeq++;
    m_slotLive[slot] = 1;

    Group& group = m_groups[g];
    const uint64_t hash = HashKey(key.value.data(), m_keyBytes);
    const uint32_t head = group.index.Find(key.value.data(), hash, m_keyArena.data(), m_keyBytes);
    const Rank rank = SlotRank(slot);
    if (head == kNone)
    {
        group.index.Insert(hash, slot);
    }
    else if (Better(rank, SlotRank(head)))
    {
        m_slotNext[slot] = head;
        group.index.Replace(hash, head, slot);
    }
    else
    {
        uint32_t prev = head;
        while (m_slotNext[prev] != kNone && Better(SlotRank(m_slotNext[prev]), rank))
        {
            prev = m_slotNext[prev];
        }
        m_slotNext[slot] = m_slotNext[prev];
        m_slotNext[prev] = slot;
    }
    ++group.count;
    ++m_count;
    if (group.count == 1 || Better(rank, group.best))
    {
        group.best = rank;
        ReorderGroup(g);
    }
}

void
Table::Remove(uint32_t slot)
{
    const uint32_t g = m_slotGroup[slot];
    Group& group = m_groups[g];
    const uint8_t* key = SlotKey(slot);
    const uint64_t hash = HashKey(key, m_keyBytes);
    const uint32_t head = group.index.Find(key, hash, m_keyArena.data(), m_keyBytes);
    if (head == slot)
    {
        if (m_slotNext[slot] != kNone)
        {
            group.index.Replace(hash, slot, m_slotNext[slot]);
        }
        else
        {
            group.index.Erase(hash, slot);
        }
    }
    else
    {
        uint32_t prev = head;
        while (m_slotNext[prev] != slot)
        {
            prev = m_slotNext[prev];
        }
        m_slotNext[prev] = m_slotNext[slot];
    }
    const bool wasBest = m_slotSeq[slot] == group.best.seq;
    m_slotLive[slot] = 0;
    m_slotNext[slot] = kNone;
    m_freeSlots.push_back(slot);
    --group.count;
    --m_count;

    if (group.count == 0)
    {
        m_groupByMask.erase(group.mask);
        m_order.erase(std::find(m_order.begin(), m_order.end(), g));
        group.index.Clear();
        group.mask.clear();
        m_freeGroups.push_back(g);
    }
    else if (wasBest)
    {
        RecomputeGroupBest(g);
        ReorderGroup(g);
    }
}

void
Table::RecomputeGroupBest(uint32_t g)
{
    Group& group = m_groups[g];
    bool first = true;
    // Each bucket holds the best entry of its chain, so the heads suffice.
    group.index.ForEachSlot([&](uint32_t slot) {
        const Rank rank = SlotRank(slot);
        if (first || Better(rank, group.best))
        {
            group.best = rank;
            first = false;
        }
    });
}

void
Table::ReorderGroup(uint32_t g)
{
    const auto it = std::find(m_order.begin(), m_order.end(), g);
    if (it != m_order.end())
    {
        m_order.erase(it);
    }
    const Rank& rank = m_groups[g].best;
    const auto pos = std::find_if(m_order.begin(), m_order.end(), [&](uint32_t other) {
        return Better(rank, m_groups[other].best);
    });
    m_order.insert(pos, g);
}

void
Table::CheckMutable() const
{
    if (m_schema.entriesAreConst)
    {
        throw Error(Where("the program declares its entries const; they cannot be changed"));
    }
}

void
Table::Add(const std::vector<MatchValue>& key, ActionId action,
           const std::vector<BitString>& args, int32_t priority)
{
    CheckMutable();
    const NormalKey nk = Normalize(key, priority);
    TableEntry entry;
    Encode(ResolveAction(action, false), args, entry);
    entry.hit = true;
    entry.priority = nk.priority;
    if (FindSlot(nk) != kNone)
    {
        std::string text;
        for (size_t i = 0; i < key.size(); ++i)
        {
            text += fmt::format("{}{}={}", i ? " " : "", m_schema.keys[i].name, key[i].ToString());
        }
        throw Error(Where(fmt::format("duplicate entry {{{}}}{}", text,
                                      m_usesPriority ? fmt::format(" priority {}", priority)
                                                     : std::string())),
                    "match");
    }
    if (m_count >= m_schema.size)
    {
        throw Error(Where(fmt::format("table full ({} entries)", m_schema.size)));
    }
    Insert(nk, entry);
}

void
Table::Modify(const std::vector<MatchValue>& key, ActionId action,
              const std::vector<BitString>& args, int32_t priority)
{
    CheckMutable();
    const NormalKey nk = Normalize(key, priority);
    TableEntry entry;
    Encode(ResolveAction(action, false), args, entry);
    const uint32_t slot = FindSlot(nk);
    if (slot == kNone)
    {
        throw Error(Where("no entry with this key to modify"), "match");
    }
    std::copy(std::begin(entry.args), std::end(entry.args), std::begin(m_entries[slot].args));
    m_entries[slot].action = entry.action;
}

void
Table::Delete(const std::vector<MatchValue>& key, int32_t priority)
{
    CheckMutable();
    const uint32_t slot = FindSlot(Normalize(key, priority));
    if (slot == kNone)
    {
        throw Error(Where("no entry with this key to delete"), "match");
    }
    Remove(slot);
}

void
Table::Clear()
{
    CheckMutable();
    m_entries.clear();
    m_keyArena.clear();
    m_slotGroup.clear();
    m_slotNext.clear();
    m_slotPrefix.clear();
    m_slotSeq.clear();
    m_slotLive.clear();
    m_freeSlots.clear();
    m_groups.clear();
    m_freeGroups.clear();
    m_groupByMask.clear();
    m_order.clear();
    m_count = 0;
}

void
Table::SetDefault(ActionId action, const std::vector<BitString>& args)
{
    if (m_schema.defaultIsConst)
    {
        throw Error(Where("the default action is const"), "action");
    }
    TableEntry entry;
    Encode(ResolveAction(action, true), args, entry);
    entry.hit = false;
    m_default = entry;
}

void
Table::ResetDefault()
{
    Encode(ResolveAction(m_schema.defaultAction, true), m_schema.defaultArgs, m_default);
    m_default.hit = false;
}

std::vector<EntryInfo>
Table::Entries() const
{
    std::vector<uint32_t> slots;
    for (uint32_t s = 0; s < m_slotLive.size(); ++s)
    {
        if (m_slotLive[s])
        {
            slots.push_back(s);
        }
    }
    std::sort(slots.begin(), slots.end(),
              [&](uint32_t a, uint32_t b) { return m_slotSeq[a] < m_slotSeq[b]; });

    std::vector<EntryInfo> out;
    out.reserve(slots.size());
    for (const uint32_t slot : slots)
    {
        EntryInfo info;
        const uint8_t* key = SlotKey(slot);
        const uint8_t* mask = m_groups[m_slotGroup[slot]].mask.data();
        for (size_t i = 0; i < m_schema.keys.size(); ++i)
        {
            const KeyFieldSpec& field = m_schema.keys[i];
            const size_t off = m_fieldOffsets[i];
            const size_t nbytes = BytesForBits(field.width);
            BitString value = BitString::FromBytes(key + off, nbytes);
            BitString maskValue = BitString::FromBytes(mask + off, nbytes);
            switch (field.kind)
            {
            case MatchKind::Exact:
                info.key.push_back(MatchValue::Exact(std::move(value)));
                break;
            case MatchKind::Lpm:
                info.key.push_back(
                    MatchValue::Lpm(std::move(value), CountOnes(mask + off, nbytes)));
                break;
            case MatchKind::Ternary:
                info.key.push_back(MatchValue::Ternary(std::move(value), std::move(maskValue)));
                break;
            case MatchKind::Optional:
                info.key.push_back(maskValue.IsZero() ? MatchValue::Wildcard()
                                                      : MatchValue::Exact(std::move(value)));
                break;
            }
        }
        const TableEntry& entry = m_entries[slot];
        info.priority = entry.priority;
        info.action = entry.action;
        const ActionSpec& action = *FindAction(entry.action);
        size_t word = 0;
        for (const ActionParamSpec& param : action.params)
        {
            const size_t words = WordsFor(param.width);
            uint8_t bytes[kMaxActionWords * 8];
            for (size_t w = 0; w < words; ++w)
            {
                StoreBigEndian(bytes + w * 8, entry.args[word++], 8);
            }
            info.args.push_back(BitString::FromBytes(bytes, words * 8));
        }
        out.push_back(std::move(info));
    }
    return out;
}

} // namespace incsim::p4rt
