#include "protocols/switchtx/gas-slice.h"

namespace incsim::switchtx
{

namespace
{

using contract_slice = p4gen::switchtx::contract::switchtx_slice_t;
using contract_down = p4gen::switchtx::contract::switchtx_down_t;

// The contract's offsets are in bits; every field here is byte-aligned.
static_assert(contract_slice::switch_id::kOffset == 0 && contract_slice::threshold::kOffset == 8 &&
              contract_slice::parent_port::kOffset == 24 &&
              contract_slice::scatter_group::kOffset == 40 && contract_slice::kBytes == 7);
static_assert(contract_down::switch_id::kOffset == 0 &&
              contract_down::scatter_group::kOffset == 8 && contract_down::kBytes == 3);

void
Put16(uint8_t* out, uint16_t value)
{
    out[0] = static_cast<uint8_t>(value >> 8);
    out[1] = static_cast<uint8_t>(value);
}

uint16_t
Get16(const uint8_t* in)
{
    return static_cast<uint16_t>((in[0] << 8) | in[1]);
}

} // namespace

void
WriteGasSlices(const GasSlices& slices, uint8_t* out)
{
    for (const GasSlice& slice : slices.path)
    {
        out[0] = slice.switchId;
        Put16(out + 1, slice.threshold);
        Put16(out + 3, slice.parentPort);
        Put16(out + 5, slice.scatterGroup);
        out += contract_slice::kBytes;
    }
    for (const GasDownSlice& slice : slices.down)
    {
        out[0] = slice.switchId;
        Put16(out + 1, slice.scatterGroup);
        out += contract_down::kBytes;
    }
}

GasSlices
ReadGasSlices(const uint8_t* in)
{
    GasSlices slices;
    for (GasSlice& slice : slices.path)
    {
        slice.switchId = in[0];
        slice.threshold = Get16(in + 1);
        slice.parentPort = Get16(in + 3);
        slice.scatterGroup = Get16(in + 5);
        in += contract_slice::kBytes;
    }
    for (GasDownSlice& slice : slices.down)
    {
        slice.switchId = in[0];
        slice.scatterGroup = Get16(in + 1);
        in += contract_down::kBytes;
    }
    return slices;
}

} // namespace incsim::switchtx
