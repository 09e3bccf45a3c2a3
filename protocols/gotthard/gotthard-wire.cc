#include "protocols/gotthard/gotthard-wire.h"

#include "sim/net/headers.h"

namespace incsim::gotthard
{

void
Message::Encode(std::vector<uint8_t>& out) const
{
    out.assign(Header::kBytes + ops.size() * Op::kBytes, 0);
    uint8_t* p = out.data();
    p[0] = static_cast<uint8_t>((header.response ? 0x80 : 0) | (header.fromSwitch ? 0x40 : 0));
    StoreBe32(p + 1, header.txnId);
    p[5] = header.fragSeq;
    p[6] = header.fragCount;
    p[7] = static_cast<uint8_t>(header.status);
    p[8] = static_cast<uint8_t>(ops.size());
    p += Header::kBytes;
    for (const Op& op : ops)
    {
        p[0] = static_cast<uint8_t>(op.type);
        StoreBe32(p + 1, op.key);
        StoreBe64(p + 5, op.value);
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
    h.response = (bytes[0] & 0x80) != 0;
    h.fromSwitch = (bytes[0] & 0x40) != 0;
    h.txnId = LoadBe32(bytes + 1);
    h.fragSeq = bytes[5];
    h.fragCount = bytes[6];
    h.status = static_cast<Status>(bytes[7]);
    h.opCount = bytes[8];
    if (length < Header::kBytes + uint32_t{h.opCount} * Op::kBytes)
    {
        return std::nullopt;
    }
    const uint8_t* p = bytes + Header::kBytes;
    message.ops.resize(h.opCount);
    for (Op& op : message.ops)
    {
        op.type = static_cast<OpType>(p[0]);
        op.key = LoadBe32(p + 1);
        op.value = LoadBe64(p + 5);
        p += Op::kBytes;
    }
    return message;
}

} // namespace incsim::gotthard
