#ifndef INCSIM_SWITCHTX_SWITCHTX_WIRE_H
#define INCSIM_SWITCHTX_SWITCHTX_WIRE_H

#include "protocols/switchtx/gas-slice.h"
#include "switchtx-contract.h"

#include <cstdint>

namespace incsim::switchtx
{

// The hosts' wire format, from p4/switchtx.p4's generated contract (switchtx-contract.h), so a
// change of the program's constants or headers that this code does not follow fails the
// build. Every SwitchTx packet is UDP from kSwitchTxPort to the receiving worker thread's
// port, and starts with the switch's header (ControlHeader): a control message's is a
// switchtx_t and its slices; a reliable channel's segment or acknowledgement (type Rc) has a
// switchtx_t alone, which the switches parse no further and route in the medium class (RDMA
// RC carries no coordination header either). After it comes a HostHeader, which the switches
// do not read: what the packet is to the hosts (a control message, or a reliable-channel
// segment or acknowledgement).

namespace contract = p4gen::switchtx::contract;

constexpr uint16_t kSwitchTxPort = contract::SWITCHTX_PORT;
constexpr uint32_t kSlotBits = 16;
static_assert(contract::SWITCHTX_SLOTS == 1u << kSlotBits,
              "txn ids put the client slot in the low SWITCHTX_SLOT_BITS bits");

/// Message types (docs/switchtx.md, "Control message").
enum class MsgType : uint8_t
{
    Init = contract::TYPE_INIT,
    LockOk = contract::TYPE_LOCK_OK,
    ValidateOk = contract::TYPE_VALIDATE_OK,
    ReplicateOk = contract::TYPE_REPLICATE_OK,
    CommitOk = contract::TYPE_COMMIT_OK,
    Fail = contract::TYPE_FAIL,
    VersionCopyOk = contract::TYPE_VERSION_COPY_OK,
    Read = contract::TYPE_READ,
    LockRequest = contract::TYPE_LOCK_REQUEST,
    WriteData = contract::TYPE_WRITE_DATA,
    Abort = contract::TYPE_ABORT,
    ReadData = contract::TYPE_READ_DATA,
    Rc = contract::TYPE_RC  ///< a reliable-channel segment or acknowledgement: no slices
};

/// §3.4.1's priority class of a message (the switch's switchtx_class table): the messages
/// that end a contention span first, execute-phase reads and commit_ok last; any message of a
/// retrying transaction first.
uint8_t ClassOf(MsgType type, bool retry);

/// switchtx_t and, except for type Rc, the slices.
struct ControlHeader
{
    using Layout = contract::switchtx_t;
    /// The longest: a control message's.
    static constexpr uint32_t kBytes = Layout::kBytes + GasSlices::kWireBytes;

    MsgType type = MsgType::Init;
    bool down = false;
    bool retry = false;
    uint16_t count = 1;
    uint32_t txnId = 0;
    GasSlices slices{};

    /// Bytes on the wire: kBytes, or switchtx_t's alone for type Rc.
    uint32_t WireBytes() const { return type == MsgType::Rc ? Layout::kBytes : kBytes; }
    /// Writes WireBytes() bytes.
    void Encode(uint8_t* out) const;
    /// False if `length` is too short for its type; an Rc header's slices are left empty.
    bool Decode(const uint8_t* bytes, uint32_t length);
};

/// What follows the ControlHeader.
struct HostHeader
{
    enum class Kind : uint8_t
    {
        Control = 0,  ///< a control message
        Segment = 1,  ///< a reliable-channel data segment
        Ack = 2,      ///< a reliable-channel acknowledgement
        /// an acknowledgement for a segment beyond the next expected (a sequence error)
        Nak = 3
    };
    static constexpr uint32_t kBytes = 5;
    Kind kind = Kind::Control;
    /// Segment: its sequence number; Ack: the next one expected; Control: the sending
    /// server's commits so far, modulo 2^32 (dynamic admission's piggybacked metric)
    uint32_t seq = 0;

    void Encode(uint8_t* out) const;
    bool Decode(const uint8_t* bytes, uint32_t length);
};

/// Transaction ids: ⟨per-slot attempt counter (high 16 bits), client slot (low 16 bits)⟩. The
/// client slot names (server, thread, MPL slot), so live transactions never share a switch
/// slot (switchtx-spec [D] 2), and the counter names the transaction on it, so a stale message
/// of a slot's earlier transaction is recognised (the switch's owner check).
constexpr uint32_t
MakeTxnId(uint32_t clientSlot, uint16_t counter)
{
    return uint32_t{counter} << kSlotBits | clientSlot;
}
constexpr uint32_t
SlotOf(uint32_t txnId)
{
    return txnId & ((1u << kSlotBits) - 1);
}

} // namespace incsim::switchtx

#endif
