#ifndef INCSIM_SWITCHTX_ERIS_WIRE_H
#define INCSIM_SWITCHTX_ERIS_WIRE_H

// The Eris baseline's messages (docs/switchtx.md, "Baselines: Eris"). A transaction is
// p4/eris.p4's message, from its generated contract (eris-contract.h), so a change of the
// program's constants or header this code does not follow fails the build: an eris_t, `slots`
// stamp slots of 4 bytes, then the operations (which the switch does not parse): a count byte
// and, per operation, its kind (read, or read-modify-write: add one) and key. Replies and the
// gap agreement's messages are the hosts' own, routed as plain UDP.

#include "eris-contract.h"

#include <array>
#include <cstdint>
#include <vector>

namespace incsim::switchtx::eris
{

namespace contract = p4gen::eris::contract;

constexpr uint32_t kMaxShards = contract::ERIS_MAX_SHARDS;
static_assert(contract::headers_t::stamps::kStackSize == kMaxShards);

/// What a transaction does to one key: YCSB-T's operations are independent (a read, or an
/// increment), so a shard executes them without knowing anything of the other shards.
enum class OpKind : uint8_t
{
    Read = 1,
    Increment = 2
};

struct TxnOp
{
    OpKind kind = OpKind::Read;
    uint64_t key = 0;
    uint32_t shard = 0;  ///< not on the wire: the receiver derives it from the key
};

/// One transaction as it travels: the switch's part and the operations.
struct TxnMessage
{
    uint8_t type = contract::TYPE_TXN;
    uint8_t slots = 0;
    uint16_t sender = 0;  ///< the client thread
    uint32_t session = 0;
    uint32_t txnId = 0;   ///< ⟨counter, MPL slot⟩: TxnIdOf
    uint64_t dests = 0;
    std::array<uint32_t, kMaxShards> stamps{};
    std::vector<TxnOp> ops;  ///< reused storage

    static constexpr uint32_t kHeaderBytes = contract::eris_t::kBytes;
    static constexpr uint32_t kStampBytes = contract::eris_stamp_t::kBytes;
    static constexpr uint32_t kOpBytes = 9;
    uint32_t Bytes() const
    {
        return kHeaderBytes + slots * kStampBytes + 1 + static_cast<uint32_t>(ops.size()) * kOpBytes;
    }
    /// Writes Bytes() bytes.
    void Encode(uint8_t* out) const;
    /// False if the bytes are not a whole message (the ops' shards are left 0).
    bool Decode(const uint8_t* bytes, uint32_t length);
};

/// The MPL slot is the txn id's low bits; the counter above names the slot's transaction.
constexpr uint32_t kSlotBits = 6;
constexpr uint32_t
TxnIdOf(uint32_t counter, uint32_t slot)
{
    return counter << kSlotBits | slot;
}
constexpr uint32_t
SlotOfTxn(uint32_t txnId)
{
    return txnId & ((1u << kSlotBits) - 1);
}
constexpr uint32_t
CounterOfTxn(uint32_t txnId)
{
    return txnId >> kSlotBits;
}

/// The hosts' own messages, told apart by their first byte.
enum class HostKind : uint8_t
{
    Reply = 1,     ///< a shard replica to the client: executed (the leader's carries results)
    GapQuery = 2,  ///< a shard replica to the failure coordinator: stamp `seq` is missing
    GapNoop = 3,   ///< the coordinator's decision: stamp `seq` is a NO-OP
    GapFound = 4   ///< the coordinator's decision: the transaction follows (a TxnMessage)
};

/// One executed operation: the value a read saw, or the value and version an increment
/// installed (version: the key's count of committed writes, before a read and after a write).
struct OpResult
{
    OpKind kind = OpKind::Read;
    uint64_t key = 0;
    uint64_t value = 0;
    uint64_t version = 0;
};

struct ReplyMessage
{
    uint8_t shard = 0;
    uint8_t replica = 0;
    uint32_t txnId = 0;
    std::vector<OpResult> results;  ///< the designated leader's (replica 0's); empty otherwise

    static constexpr uint32_t kFixedBytes = 8;
    static constexpr uint32_t kResultBytes = 25;
    uint32_t Bytes() const
    {
        return kFixedBytes + static_cast<uint32_t>(results.size()) * kResultBytes;
    }
    void Encode(uint8_t* out) const;
    bool Decode(const uint8_t* bytes, uint32_t length);
};

/// GapQuery, GapNoop and GapFound's fixed part (a GapFound's TxnMessage follows it).
struct GapMessage
{
    HostKind kind = HostKind::GapQuery;
    uint8_t shard = 0;
    uint8_t replica = 0;
    uint32_t session = 0;
    uint32_t seq = 0;

    static constexpr uint32_t kBytes = 11;
    void Encode(uint8_t* out) const;
    bool Decode(const uint8_t* bytes, uint32_t length);
};

/// The largest message a host builds: a GapFound with a transaction of `ops` operations on 40
/// slots.
constexpr uint32_t
MaxMessageBytes(uint32_t ops)
{
    return GapMessage::kBytes + TxnMessage::kHeaderBytes + kMaxShards * TxnMessage::kStampBytes +
           1 + ops * TxnMessage::kOpBytes;
}

} // namespace incsim::switchtx::eris

#endif
