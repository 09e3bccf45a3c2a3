#include "protocols/onepipe/baselines/baseline-wire.h"

#include "sim/net/headers.h"

#include <cstring>

namespace incsim::onepipe
{

void
BaselineHeader::Write(uint8_t* out) const
{
    std::memset(out, 0, kBytes);
    out[kKindByte] = static_cast<uint8_t>(kind);
    StoreBe32(out + kSrcByte, src);
    StoreBe32(out + kSequenceByte, sequence);
    StoreBe64(out + kKeyByte, key);
    StoreBe32(out + kBytesByte, bytes);
}

BaselineHeader
BaselineHeader::Read(const uint8_t* in)
{
    BaselineHeader header;
    header.kind = static_cast<BaselineKind>(in[kKindByte]);
    header.src = LoadBe32(in + kSrcByte);
    header.sequence = LoadBe32(in + kSequenceByte);
    header.key = LoadBe64(in + kKeyByte);
    header.bytes = LoadBe32(in + kBytesByte);
    return header;
}

} // namespace incsim::onepipe
