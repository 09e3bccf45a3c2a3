#include "protocols/switchtx/switchtx-store.h"

namespace incsim::switchtx
{

ShardStore::Record
ShardStore::Get(uint64_t key) const
{
    const auto it = m_records.find(key);
    return it == m_records.end() ? Record{} : it->second;
}

bool
ShardStore::TryLock(uint64_t key, uint32_t owner)
{
    Record& record = m_records[key];
    if (record.lockOwner != 0)
    {
        return record.lockOwner == owner;
    }
    record.lockOwner = owner;
    ++m_locked;
    return true;
}

void
ShardStore::Unlock(uint64_t key, uint32_t owner)
{
    const auto it = m_records.find(key);
    if (it != m_records.end() && it->second.lockOwner == owner)
    {
        it->second.lockOwner = 0;
        --m_locked;
    }
}

bool
ShardStore::Validate(uint64_t key, uint64_t version, uint32_t owner) const
{
    const Record record = Get(key);
    return record.version == version && (record.lockOwner == 0 || record.lockOwner == owner);
}

uint64_t
ShardStore::Install(uint64_t key, uint64_t value)
{
    Record& record = m_records[key];
    record.value = value;
    return ++record.version;
}

void
ShardStore::Fence(uint64_t key)
{
    Record& record = m_records[key];
    if (record.fences++ == 0)
    {
        // A promoted backup's store holds no locks (backups do not lock): the fence is the
        // key's lock until the last undecided attempt lets it go.
        m_locked += record.lockOwner == 0 ? 1 : 0;
        record.lockOwner = kFenceOwner;
    }
}

void
ShardStore::Unfence(uint64_t key)
{
    Record& record = m_records[key];
    if (record.fences > 0 && --record.fences == 0)
    {
        record.lockOwner = 0;
        --m_locked;
    }
}

std::map<uint64_t, uint64_t>
ShardStore::WrittenState() const
{
    std::map<uint64_t, uint64_t> state;
    for (const auto& [key, record] : m_records)
    {
        if (record.version > 0)
        {
            state.emplace(key, record.value);
        }
    }
    return state;
}

} // namespace incsim::switchtx
