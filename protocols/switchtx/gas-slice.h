#ifndef INCSIM_SWITCHTX_GAS_SLICE_H
#define INCSIM_SWITCHTX_GAS_SLICE_H

#include "switchtx-contract.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace incsim::switchtx
{

/// One switch's part of a control message (p4/switchtx.p4's switchtx_slice_t; docs/switchtx.md,
/// "Control message"): what the switch gathers in the phase the message completes, where it
/// sends its subtree's message, and whom it scatters the next phase to. A message carries one
/// for each switch between its sender and the tree's root.
struct GasSlice
{
    static constexpr uint16_t kNoParent = 0xFFFF; ///< parent_port at the root
    uint8_t switchId = 0;                         ///< 0: unused slice
    uint16_t threshold = 0;
    uint16_t parentPort = kNoParent;
    uint16_t scatterGroup = 0; ///< multicast group; 0: none

    bool operator==(const GasSlice& o) const
    {
        return switchId == o.switchId && threshold == o.threshold && parentPort == o.parentPort &&
               scatterGroup == o.scatterGroup;
    }
};

/// A tree switch off the sender's path (switchtx_down_t): the message reaches it only on its
/// way down, where it needs nothing but its scatter group.
struct GasDownSlice
{
    uint8_t switchId = 0; ///< 0: unused
    uint16_t scatterGroup = 0;

    bool operator==(const GasDownSlice& o) const
    {
        return switchId == o.switchId && scatterGroup == o.scatterGroup;
    }
};

/// The slices of one control message: the sender's path, leaf first, and the other tree
/// switches the message passes on its way down. Unused entries are zero (switch id 0).
struct GasSlices
{
    using Headers = p4gen::switchtx::contract::headers_t;
    static constexpr std::size_t kPathSlices = Headers::slices::kStackSize;
    static constexpr std::size_t kDownSlices = Headers::downs::kStackSize;
    /// Bytes on the wire after switchtx_t.
    static constexpr uint32_t kWireBytes =
        kPathSlices * p4gen::switchtx::contract::switchtx_slice_t::kBytes +
        kDownSlices * p4gen::switchtx::contract::switchtx_down_t::kBytes;

    std::array<GasSlice, kPathSlices> path{};
    std::array<GasDownSlice, kDownSlices> down{};

    bool operator==(const GasSlices& o) const { return path == o.path && down == o.down; }
};

/// Writes `slices` as the program parses them (kWireBytes bytes, big-endian) at `out`.
void WriteGasSlices(const GasSlices& slices, uint8_t* out);
/// Reads what WriteGasSlices wrote.
GasSlices ReadGasSlices(const uint8_t* in);

} // namespace incsim::switchtx

#endif
