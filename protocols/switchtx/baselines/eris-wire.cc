#include "protocols/switchtx/baselines/eris-wire.h"

#include "p4/runtime/contract-fields.h"
#include "sim/net/headers.h"

namespace incsim::switchtx::eris
{

namespace
{
using p4rt::ByteOf;

using E = contract::eris_t;
static_assert(E::msg_type::kWidth == 8 && E::slots::kWidth == 8 && E::sender::kWidth == 16 &&
              E::session::kWidth == 32 && E::txn_id::kWidth == 32 && E::dests::kWidth == 64);
static_assert(contract::eris_stamp_t::seq::kWidth == 32);

bool
ValidKind(uint8_t kind)
{
    return kind == static_cast<uint8_t>(OpKind::Read) ||
           kind == static_cast<uint8_t>(OpKind::Increment);
}
} // namespace

void
TxnMessage::Encode(uint8_t* out) const
{
    out[ByteOf<E::msg_type>()] = type;
    out[ByteOf<E::slots>()] = slots;
    StoreBe16(out + ByteOf<E::sender>(), sender);
    StoreBe32(out + ByteOf<E::session>(), session);
    StoreBe32(out + ByteOf<E::txn_id>(), txnId);
    StoreBe64(out + ByteOf<E::dests>(), dests);
    uint8_t* p = out + kHeaderBytes;
    for (uint32_t s = 0; s < slots; ++s, p += kStampBytes)
    {
        StoreBe32(p, stamps[s]);
    }
    *p++ = static_cast<uint8_t>(ops.size());
    for (const TxnOp& op : ops)
    {
        p[0] = static_cast<uint8_t>(op.kind);
        StoreBe64(p + 1, op.key);
        p += kOpBytes;
    }
}

bool
TxnMessage::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < kHeaderBytes + 1)
    {
        return false;
    }
    type = bytes[ByteOf<E::msg_type>()];
    slots = bytes[ByteOf<E::slots>()];
    sender = LoadBe16(bytes + ByteOf<E::sender>());
    session = LoadBe32(bytes + ByteOf<E::session>());
    txnId = LoadBe32(bytes + ByteOf<E::txn_id>());
    dests = LoadBe64(bytes + ByteOf<E::dests>());
    if (slots > kMaxShards || length < kHeaderBytes + slots * kStampBytes + 1)
    {
        return false;
    }
    const uint8_t* p = bytes + kHeaderBytes;
    stamps.fill(0);
    for (uint32_t s = 0; s < slots; ++s, p += kStampBytes)
    {
        stamps[s] = LoadBe32(p);
    }
    const uint32_t count = *p++;
    if (length < static_cast<uint32_t>(p - bytes) + count * kOpBytes)
    {
        return false;
    }
    ops.resize(count);
    for (TxnOp& op : ops)
    {
        if (!ValidKind(p[0]))
        {
            return false;
        }
        op.kind = static_cast<OpKind>(p[0]);
        op.key = LoadBe64(p + 1);
        op.shard = 0;
        p += kOpBytes;
    }
    return true;
}

void
ReplyMessage::Encode(uint8_t* out) const
{
    out[0] = static_cast<uint8_t>(HostKind::Reply);
    out[1] = shard;
    out[2] = replica;
    StoreBe32(out + 3, txnId);
    out[7] = static_cast<uint8_t>(results.size());
    uint8_t* p = out + kFixedBytes;
    for (const OpResult& r : results)
    {
        p[0] = static_cast<uint8_t>(r.kind);
        StoreBe64(p + 1, r.key);
        StoreBe64(p + 9, r.value);
        StoreBe64(p + 17, r.version);
        p += kResultBytes;
    }
}

bool
ReplyMessage::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < kFixedBytes || bytes[0] != static_cast<uint8_t>(HostKind::Reply) ||
        length < kFixedBytes + bytes[7] * kResultBytes)
    {
        return false;
    }
    shard = bytes[1];
    replica = bytes[2];
    txnId = LoadBe32(bytes + 3);
    results.resize(bytes[7]);
    const uint8_t* p = bytes + kFixedBytes;
    for (OpResult& r : results)
    {
        if (!ValidKind(p[0]))
        {
            return false;
        }
        r.kind = static_cast<OpKind>(p[0]);
        r.key = LoadBe64(p + 1);
        r.value = LoadBe64(p + 9);
        r.version = LoadBe64(p + 17);
        p += kResultBytes;
    }
    return true;
}

void
GapMessage::Encode(uint8_t* out) const
{
    out[0] = static_cast<uint8_t>(kind);
    out[1] = shard;
    out[2] = replica;
    StoreBe32(out + 3, session);
    StoreBe32(out + 7, seq);
}

bool
GapMessage::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < kBytes || bytes[0] < static_cast<uint8_t>(HostKind::GapQuery) ||
        bytes[0] > static_cast<uint8_t>(HostKind::GapFound))
    {
        return false;
    }
    kind = static_cast<HostKind>(bytes[0]);
    shard = bytes[1];
    replica = bytes[2];
    session = LoadBe32(bytes + 3);
    seq = LoadBe32(bytes + 7);
    return true;
}

} // namespace incsim::switchtx::eris
