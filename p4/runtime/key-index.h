#ifndef INCSIM_P4RT_KEY_INDEX_H
#define INCSIM_P4RT_KEY_INDEX_H

// The hash index under every table: fixed-length byte keys -> entry slot numbers. Keys live in
// the table's flat key arena, not here, so a bucket is 8 bytes and a lookup touches one bucket
// line plus the key it confirms. Open addressing with linear probing and backward-shift
// deletion (no tombstones, so lookups never slow down after churn).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace incsim::p4rt
{

/// Byte-wise equality of two keys, with overlapping word loads for the short keys tables use
/// (a library memcmp call costs more than the comparison itself).
inline bool KeysEqual(const uint8_t* a, const uint8_t* b, size_t n)
{
    const auto load64 = [](const uint8_t* p) {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    };
    const auto load32 = [](const uint8_t* p) {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    };
    if (n >= 8 && n <= 16)
    {
        return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
    }
    if (n >= 4 && n < 8)
    {
        return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
    }
    if (n < 4)
    {
        for (size_t i = 0; i < n; ++i)
        {
            if (a[i] != b[i])
            {
                return false;
            }
        }
        return true;
    }
    return std::memcmp(a, b, n) == 0;
}

/// A fast 64-bit hash of a short byte string, in the style of wyhash: 16 bytes per
/// multiply-fold round, overlapping loads for the tail, so keys of any length cost a handful
/// of multiplications and no branches per byte. Not for adversarial input.
inline uint64_t HashKey(const uint8_t* p, size_t n)
{
    constexpr uint64_t kP0 = 0xa0761d6478bd642full;
    constexpr uint64_t kP1 = 0xe7037ed1a0b428dbull;
    constexpr uint64_t kP2 = 0x8ebc6af09c88c6e3ull;
    const auto fold = [](uint64_t a, uint64_t b) {
        const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
        return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
    };
    const auto read64 = [](const uint8_t* q) {
        uint64_t v;
        std::memcpy(&v, q, 8);
        return v;
    };
    const auto read32 = [](const uint8_t* q) {
        uint32_t v;
        std::memcpy(&v, q, 4);
        return static_cast<uint64_t>(v);
    };

    uint64_t seed = kP0;
    uint64_t a = 0;
    uint64_t b = 0;
    if (n <= 16)
    {
        if (n >= 4)
        {
            const size_t step = (n >> 3) << 2;  // 0 for 4..7 bytes, 4 for 8..16
            a = (read32(p) << 32) | read32(p + step);
            b = (read32(p + n - 4) << 32) | read32(p + n - 4 - step);
        }
        else if (n > 0)
        {
            a = (uint64_t{p[0]} << 16) | (uint64_t{p[n >> 1]} << 8) | p[n - 1];
        }
    }
    else
    {
        size_t left = n;
        while (left > 16)
        {
            seed = fold(read64(p) ^ kP1, read64(p + 8) ^ seed);
            p += 16;
            left -= 16;
        }
        a = read64(p + left - 16);
        b = read64(p + left - 8);
    }
    return fold(kP1 ^ n, fold(a ^ kP1, b ^ seed ^ kP2));
}

class KeyIndex
{
  public:
    static constexpr uint32_t kNone = UINT32_MAX;

    /// The slot whose key (at arena + slot * keyBytes) equals `key`, or kNone.
    uint32_t Find(const uint8_t* key, uint64_t hash, const uint8_t* arena, size_t keyBytes) const
    {
        if (m_count == 0)
        {
            return kNone;
        }
        const size_t mask = m_buckets.size() - 1;
        const uint32_t tag = static_cast<uint32_t>(hash);
        for (size_t i = tag & mask;; i = (i + 1) & mask)
        {
            const Bucket& b = m_buckets[i];
            if (b.slot == kNone)
            {
                return kNone;
            }
            if (b.tag == tag && KeysEqual(arena + size_t(b.slot) * keyBytes, key, keyBytes))
            {
                return b.slot;
            }
        }
    }

    /// Starts loading the bucket line a Find with this hash will read first, so that several
    /// probes (one per lpm length or ternary mask) overlap their cache misses.
    void Prefetch(uint64_t hash) const
    {
        if (m_count != 0)
        {
            __builtin_prefetch(&m_buckets[static_cast<uint32_t>(hash) & (m_buckets.size() - 1)]);
        }
    }

    /// Adds `slot` under `hash`; the caller guarantees its key is not present yet.
    void Insert(uint64_t hash, uint32_t slot)
    {
        if ((m_count + 1) * 2 > m_buckets.size())
        {
            Grow();
        }
        Place(Bucket{static_cast<uint32_t>(hash), slot});
        ++m_count;
    }

    /// The key of `oldSlot` now belongs to `newSlot` (same key, so same hash).
    void Replace(uint64_t hash, uint32_t oldSlot, uint32_t newSlot)
    {
        m_buckets[Position(hash, oldSlot)].slot = newSlot;
    }

    void Erase(uint64_t hash, uint32_t slot)
    {
        const size_t mask = m_buckets.size() - 1;
        size_t hole = Position(hash, slot);
        size_t j = hole;
        for (;;)
        {
            m_buckets[hole].slot = kNone;
            // Pull back the first later bucket in the run that may legally sit in the hole.
            for (;;)
            {
                j = (j + 1) & mask;
                if (m_buckets[j].slot == kNone)
                {
                    --m_count;
                    return;
                }
                const size_t home = m_buckets[j].tag & mask;
                const bool homeInRange = (hole <= j) ? (hole < home && home <= j)
                                                     : (hole < home || home <= j);
                if (!homeInRange)
                {
                    break;
                }
            }
            m_buckets[hole] = m_buckets[j];
            hole = j;
        }
    }

    void Clear()
    {
        m_buckets.clear();
        m_count = 0;
    }

    size_t Count() const { return m_count; }

    template <typename F>
    void ForEachSlot(F&& f) const
    {
        for (const Bucket& b : m_buckets)
        {
            if (b.slot != kNone)
            {
                f(b.slot);
            }
        }
    }

  private:
    struct Bucket
    {
        uint32_t tag;  // low 32 bits of the hash: home position and a cheap pre-check
        uint32_t slot;
    };

    size_t Position(uint64_t hash, uint32_t slot) const
    {
        const size_t mask = m_buckets.size() - 1;
        size_t i = static_cast<uint32_t>(hash) & mask;
        while (m_buckets[i].slot != slot)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    void Place(Bucket bucket)
    {
        const size_t mask = m_buckets.size() - 1;
        size_t i = bucket.tag & mask;
        while (m_buckets[i].slot != kNone)
        {
            i = (i + 1) & mask;
        }
        m_buckets[i] = bucket;
    }

    void Grow()
    {
        std::vector<Bucket> old(m_buckets.empty() ? 16 : m_buckets.size() * 2, Bucket{0, kNone});
        old.swap(m_buckets);
        for (const Bucket& b : old)
        {
            if (b.slot != kNone)
            {
                Place(b);
            }
        }
    }

    std::vector<Bucket> m_buckets;  // power-of-two size, at most half full
    size_t m_count = 0;
};

} // namespace incsim::p4rt

#endif
