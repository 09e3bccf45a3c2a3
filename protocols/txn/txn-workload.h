#ifndef INCSIM_TXN_TXN_WORKLOAD_H
#define INCSIM_TXN_TXN_WORKLOAD_H

#include "sim/core/rng.h"

#include <cstdint>
#include <string>
#include <vector>

namespace incsim::txn
{

/// What one operation of a transaction does to a key.
enum class AccessType : uint8_t
{
    /// Reads the value the transaction's execution saw (`value`); commit validates it (by
    /// value or by version). Gotthard: a compare.
    Read,
    /// Writes `value`.
    Write,
    /// Reads the key at commit: the server supplies the value (`value` is 0 when issued).
    /// Gotthard: a read.
    Fetch
};

struct Access
{
    AccessType type = AccessType::Read;
    uint64_t key = 0;
    uint64_t value = 0;
};

/// One logical transaction, drawn once and executed again on every retry: its kind (an index
/// into the workload's KindNames) and the arguments the workload gives it.
struct Transaction
{
    uint32_t kind = 0;
    std::vector<uint64_t> args;
};

/// The values a client's execution sees (from its cache, or read from the servers).
class ValueView
{
  public:
    virtual ~ValueView() = default;
    /// The value of `key` as the execution saw it (never seen: 0, every key's initial value).
    virtual uint64_t Value(uint64_t key) const = 0;
};

/// A transactional workload: draws logical transactions and executes them against the values
/// a client sees into the accesses of one attempt. The keys a transaction reads depend only
/// on its arguments, so a protocol can execute it once to learn the keys, read them, and
/// execute it again on the values read; the keys and values it writes may depend on the
/// values read.
class Workload
{
  public:
    virtual ~Workload() = default;
    virtual const std::vector<std::string>& KindNames() const = 0;
    /// Draws client `client`'s next logical transaction into `txn` (its storage is reused).
    virtual void Next(uint32_t client, Rng& rng, Transaction& txn) const = 0;
    /// Appends the accesses of one execution of `txn` on `values` to `accesses`.
    virtual void Execute(const Transaction& txn, const ValueView& values,
                         std::vector<Access>& accesses) const = 0;
    /// Partitions the keys are spread over (shards, servers), and the one holding `key`.
    virtual uint32_t Partitions() const = 0;
    virtual uint32_t PartitionOf(uint64_t key) const = 0;
};

} // namespace incsim::txn

#endif
