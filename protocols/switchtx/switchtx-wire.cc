#include "protocols/switchtx/switchtx-wire.h"

#include "p4/runtime/contract-fields.h"
#include "sim/net/headers.h"

namespace incsim::switchtx
{

namespace
{
using p4rt::ByteOf;
using p4rt::FlagBit;

using H = ControlHeader::Layout;
static_assert(H::msg_type::kWidth == 8 && H::count::kWidth == 16 && H::txn_id::kWidth == 32);
constexpr uint32_t kTypeByte = ByteOf<H::msg_type>();
constexpr uint32_t kFlagsByte = p4rt::FlagByteOf<H::down>();
static_assert(p4rt::FlagByteOf<H::retry>() == kFlagsByte, "down and retry share a byte");
constexpr uint8_t kDownBit = FlagBit<H::down>();
constexpr uint8_t kRetryBit = FlagBit<H::retry>();
constexpr uint32_t kCountByte = ByteOf<H::count>();
constexpr uint32_t kTxnIdByte = ByteOf<H::txn_id>();
} // namespace

uint8_t
ClassOf(MsgType type, bool retry)
{
    if (retry)
    {
        return contract::CLASS_HIGH;
    }
    switch (type)
    {
    case MsgType::LockOk:
    case MsgType::ReplicateOk:
    case MsgType::Fail:
    case MsgType::VersionCopyOk:
        return contract::CLASS_HIGH;
    case MsgType::Read:
    case MsgType::CommitOk:
        return contract::CLASS_LOW;
    default:
        return contract::CLASS_MEDIUM;
    }
}

void
ControlHeader::Encode(uint8_t* out) const
{
    out[kTypeByte] = static_cast<uint8_t>(type);
    out[kFlagsByte] = static_cast<uint8_t>((down ? kDownBit : 0) | (retry ? kRetryBit : 0));
    StoreBe16(out + kCountByte, count);
    StoreBe32(out + kTxnIdByte, txnId);
    if (type != MsgType::Rc)
    {
        WriteGasSlices(slices, out + Layout::kBytes);
    }
}

bool
ControlHeader::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < Layout::kBytes)
    {
        return false;
    }
    type = static_cast<MsgType>(bytes[kTypeByte]);
    if (length < WireBytes())
    {
        return false;
    }
    down = (bytes[kFlagsByte] & kDownBit) != 0;
    retry = (bytes[kFlagsByte] & kRetryBit) != 0;
    count = LoadBe16(bytes + kCountByte);
    txnId = LoadBe32(bytes + kTxnIdByte);
    slices = type == MsgType::Rc ? GasSlices{} : ReadGasSlices(bytes + Layout::kBytes);
    return true;
}

void
HostHeader::Encode(uint8_t* out) const
{
    out[0] = static_cast<uint8_t>(kind);
    StoreBe32(out + 1, seq);
}

bool
HostHeader::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < kBytes || bytes[0] > static_cast<uint8_t>(Kind::Nak))
    {
        return false;
    }
    kind = static_cast<Kind>(bytes[0]);
    seq = LoadBe32(bytes + 1);
    return true;
}

} // namespace incsim::switchtx
