#include "protocols/gotthard/gotthard-wire.h"

#include "sim/net/headers.h"

#include <algorithm>

namespace incsim::gotthard
{

void
Message::Encode(std::vector<uint8_t>& out) const
{
    out.assign(Header::kBytes + ops.size() * Op::kBytes, 0);
    uint8_t* p = out.data();
    p[0] = static_cast<uint8_t>((header.response ? Header::kResponseBit : 0) |
                                (header.fromSwitch ? Header::kFromSwitchBit : 0) |
                                (header.replay ? Header::kReplayBit : 0));
    StoreBe64(p + Header::kTxnIdByte, header.txnId);
    p[Header::kFragSeqByte] = header.fragSeq;
    p[Header::kFragCountByte] = header.fragCount;
    p[Header::kStatusByte] = static_cast<uint8_t>(header.status);
    p[Header::kOpCountByte] = static_cast<uint8_t>(ops.size());
    p += Header::kBytes;
    for (const Op& op : ops)
    {
        p[Op::kTypeByte] = static_cast<uint8_t>(op.type);
        StoreBe32(p + Op::kKeyByte, op.key);
        StoreBe64(p + Op::kValueByte, op.value);
        p += Op::kBytes;
    }
}

std::optional<Message>
Message::Decode(const uint8_t* bytes, uint32_t length)
{
    if (length < Header::kBytes)
    {
        return std::nullopt;
    }
    Message message;
    Header& h = message.header;
    h.response = (bytes[0] & Header::kResponseBit) != 0;
    h.fromSwitch = (bytes[0] & Header::kFromSwitchBit) != 0;
    h.replay = (bytes[0] & Header::kReplayBit) != 0;
    h.txnId = LoadBe64(bytes + Header::kTxnIdByte);
    h.fragSeq = bytes[Header::kFragSeqByte];
    h.fragCount = bytes[Header::kFragCountByte];
    h.status = static_cast<Status>(bytes[Header::kStatusByte]);
    h.opCount = bytes[Header::kOpCountByte];
    if (length < Header::kBytes + uint32_t{h.opCount} * Op::kBytes)
    {
        return std::nullopt;
    }
    const uint8_t* p = bytes + Header::kBytes;
    message.ops.resize(h.opCount);
    for (Op& op : message.ops)
    {
        op.type = static_cast<OpType>(p[Op::kTypeByte]);
        op.key = LoadBe32(p + Op::kKeyByte);
        op.value = LoadBe64(p + Op::kValueByte);
        p += Op::kBytes;
    }
    return message;
}

void
Message::EncodeFragments(std::vector<std::vector<uint8_t>>& packets) const
{
    const size_t count = std::max<size_t>(1, (ops.size() + kMaxOpsPerPacket - 1) / kMaxOpsPerPacket);
    packets.resize(count);
    Message fragment;
    fragment.header = header;
    fragment.header.fragCount = static_cast<uint8_t>(count);
    for (size_t i = 0; i < count; ++i)
    {
        const size_t begin = i * kMaxOpsPerPacket;
        const size_t end = std::min(ops.size(), begin + kMaxOpsPerPacket);
        fragment.header.fragSeq = static_cast<uint8_t>(i);
        fragment.ops.assign(ops.begin() + static_cast<std::ptrdiff_t>(begin),
                            ops.begin() + static_cast<std::ptrdiff_t>(end));
        fragment.Encode(packets[i]);
    }
}

Reassembly::Result
Reassembly::Add(Message fragment)
{
    const Header& h = fragment.header;
    if (m_parts.empty())
    {
        if (h.fragCount == 0)
        {
            return Result::Invalid;
        }
        m_parts.resize(h.fragCount);
        m_missing = h.fragCount;
    }
    if (h.fragCount != m_parts.size() || h.fragSeq >= m_parts.size())
    {
        return Result::Invalid;
    }
    std::optional<Message>& part = m_parts[h.fragSeq];
    if (!part)
    {
        part = std::move(fragment);
        --m_missing;
    }
    return m_missing == 0 ? Result::Complete : Result::Incomplete;
}

Message
Reassembly::Take()
{
    Message whole;
    whole.header = m_parts.front()->header;
    whole.header.fragSeq = 0;
    whole.header.fragCount = 1;
    for (std::optional<Message>& part : m_parts)
    {
        whole.ops.insert(whole.ops.end(), part->ops.begin(), part->ops.end());
    }
    whole.header.opCount = static_cast<uint8_t>(std::min<size_t>(whole.ops.size(), 255));
    m_parts.clear();
    m_missing = 0;
    return whole;
}

} // namespace incsim::gotthard
