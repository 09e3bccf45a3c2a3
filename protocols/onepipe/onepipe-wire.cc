#include "protocols/onepipe/onepipe-wire.h"

#include "sim/net/headers.h"

#include <algorithm>

namespace incsim::onepipe
{

FramePtr
MakeBeaconFrame(uint64_t srcMac, const Header& header, uint8_t priority)
{
    FramePtr frame = FramePool::Instance().Allocate();
    uint8_t* data = frame->data;
    std::memset(data, 0xFF, 6);
    for (int i = 0; i < 6; ++i)
    {
        data[6 + i] = static_cast<uint8_t>(srcMac >> (40 - 8 * i));
    }
    StoreBe16(data + 12, kEtherType);
    header.Write(data + kEthernetHeaderBytes);
    frame->length = kEthernetHeaderBytes + Header::kBytes;
    frame->wireLength = std::max(frame->length, kMinFrameBytes);
    frame->meta.priority = priority;
    return frame;
}

void
Store48(uint8_t* out, uint64_t value)
{
    for (int i = 5; i >= 0; --i)
    {
        out[i] = static_cast<uint8_t>(value);
        value >>= 8;
    }
}

uint64_t
Load48(const uint8_t* in)
{
    uint64_t value = 0;
    for (int i = 0; i < 6; ++i)
    {
        value = (value << 8) | in[i];
    }
    return value;
}

void
Header::Write(uint8_t* out) const
{
    Store48(out + kMessageTsByte, messageTs & kTimestampMask);
    Store48(out + kBarrierByte, barrier & kTimestampMask);
    Store48(out + kCommitBarrierByte, commitBarrier & kTimestampMask);
    StoreBe32(out + kPsnByte, psn);
    out[kOpcodeByte] = static_cast<uint8_t>(opcode);
    out[kFlagsByte] = flags;
}

Header
Header::Read(const uint8_t* in)
{
    Header header;
    header.messageTs = Load48(in + Header::kMessageTsByte);
    header.barrier = Load48(in + Header::kBarrierByte);
    header.commitBarrier = Load48(in + Header::kCommitBarrierByte);
    header.psn = LoadBe32(in + Header::kPsnByte);
    header.opcode = static_cast<Opcode>(in[Header::kOpcodeByte]);
    header.flags = in[Header::kFlagsByte];
    return header;
}

void
MessageHeader::Write(uint8_t* out) const
{
    StoreBe32(out, sequence);
    StoreBe16(out + 4, fragment);
    StoreBe16(out + 6, fragments);
    StoreBe32(out + 8, messageBytes);
}

MessageHeader
MessageHeader::Read(const uint8_t* in)
{
    MessageHeader header;
    header.sequence = LoadBe32(in);
    header.fragment = LoadBe16(in + 4);
    header.fragments = LoadBe16(in + 6);
    header.messageBytes = LoadBe32(in + 8);
    return header;
}

void
AckHeader::Write(uint8_t* out) const
{
    StoreBe32(out, static_cast<uint32_t>(feedbackNs));
    StoreBe16(out + 4, count);
}

AckHeader
AckHeader::Read(const uint8_t* in)
{
    AckHeader header;
    header.feedbackNs = static_cast<int32_t>(LoadBe32(in));
    header.count = LoadBe16(in + 4);
    return header;
}

} // namespace incsim::onepipe
