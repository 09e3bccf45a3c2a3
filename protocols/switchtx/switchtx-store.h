#ifndef INCSIM_SWITCHTX_SWITCHTX_STORE_H
#define INCSIM_SWITCHTX_SWITCHTX_STORE_H

#include <cstdint>
#include <map>
#include <unordered_map>

namespace incsim::switchtx
{

/// One replica of one shard: single-version, update-in-place records (§3.2.3), each with its
/// value, its version (the number of committed writes to it, as the history logs versions)
/// and its write-lock owner (a txn_id; 0: unlocked). Every key starts at value 0, version 0.
class ShardStore
{
  public:
    struct Record
    {
        uint64_t value = 0;
        uint64_t version = 0;
        uint32_t lockOwner = 0;
        uint32_t fences = 0;
    };

    Record Get(uint64_t key) const;
    /// No-wait write lock: false if another transaction holds it.
    bool TryLock(uint64_t key, uint32_t owner);
    /// Releases the lock if `owner` holds it.
    void Unlock(uint64_t key, uint32_t owner);
    /// OCC validation of a read: the version is still `version` and no other transaction holds
    /// the lock.
    bool Validate(uint64_t key, uint64_t version, uint32_t owner) const;
    /// Writes `value` in place; returns the version installed (the previous one plus 1).
    uint64_t Install(uint64_t key, uint64_t value);

    /// A promoted primary holds `key` for an attempt the old primary had locked and whose fate
    /// is not known yet (docs/switchtx.md "Failures"): no one may lock or validate it until
    /// every such attempt is decided. Fences count, so two undecided attempts may hold one key.
    void Fence(uint64_t key);
    void Unfence(uint64_t key);
    /// The lock owner that fences stand for: a txn id no attempt has (counter 0).
    static constexpr uint32_t kFenceOwner = 1;

    /// The keys ever written, with their values (the state the history checker compares).
    std::map<uint64_t, uint64_t> WrittenState() const;
    uint64_t LockedKeys() const { return m_locked; }

  private:
    std::unordered_map<uint64_t, Record> m_records;
    uint64_t m_locked = 0;
};

} // namespace incsim::switchtx

#endif
