#ifndef INCSIM_SWITCHTX_GAS_SLICE_H
#define INCSIM_SWITCHTX_GAS_SLICE_H

#include <array>
#include <cstdint>

namespace incsim::switchtx
{

/// One switch's part of a control message (p4/switchtx.p4's switchtx_slice_t; docs/switchtx.md,
/// "Control message"): what the switch gathers in the phase the message completes, where it
/// sends its subtree's message, and whom it scatters the next phase to.
struct GasSlice
{
    static constexpr uint16_t kNoParent = 0xFFFF; ///< parent_port at the root
    uint8_t switchId = 0;                         ///< 0: unused slice
    uint16_t threshold = 0;
    uint16_t parentPort = kNoParent;
    uint16_t scatterGroup = 0; ///< multicast group; 0: none
};

/// The slices of one control message, one per switch of the coordination tree
/// (SWITCHTX_TREE_SWITCHES).
using GasSlices = std::array<GasSlice, 4>;

} // namespace incsim::switchtx

#endif
