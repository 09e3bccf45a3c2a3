#include "protocols/onepipe/baselines/baseline-wire.h"

#include "sim/net/headers.h"

#include <cstring>

namespace incsim::onepipe
{

void
BaselineHeader::Write(uint8_t* out) const
{
    std::memset(out, 0, kBytes);
    out[0] = static_cast<uint8_t>(kind);
    StoreBe32(out + 4, src);
    StoreBe32(out + 8, sequence);
    StoreBe64(out + 12, key);
    StoreBe32(out + 20, bytes);
}

BaselineHeader
BaselineHeader::Read(const uint8_t* in)
{
    BaselineHeader header;
    header.kind = static_cast<BaselineKind>(in[0]);
    header.src = LoadBe32(in + 4);
    header.sequence = LoadBe32(in + 8);
    header.key = LoadBe64(in + 12);
    header.bytes = LoadBe32(in + 20);
    return header;
}

} // namespace incsim::onepipe
