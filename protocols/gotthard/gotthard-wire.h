#ifndef INCSIM_GOTTHARD_GOTTHARD_WIRE_H
#define INCSIM_GOTTHARD_GOTTHARD_WIRE_H

#include "gotthard-contract.h"
#include "p4/runtime/contract-fields.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace incsim::gotthard
{

// The wire format of p4/gotthard.p4, from its generated contract (gotthard-contract.h), so
// that a change to the program's constants or headers that this code does not follow fails
// the build: after UDP to or from kStorePort, a 13-byte Header (paper Fig. 5, with a 64-bit
// txn_id and a replay flag) and Header::opCount operations of 13 bytes.

namespace contract = p4gen::gotthard::contract;

constexpr uint16_t kStorePort = contract::GOTTHARD_PORT;
constexpr uint32_t kMaxOpsPerPacket = contract::GOTTHARD_MAX_OPS;
static_assert(contract::headers_t::ops::kStackSize == kMaxOpsPerPacket);

enum class OpType : uint8_t
{
    Read = contract::OP_READ,
    Write = contract::OP_WRITE,
    Compare = contract::OP_COMPARE
};

enum class Status : uint8_t
{
    Ok = contract::STATUS_OK,                ///< responses
    Abort = contract::STATUS_ABORT,          ///< responses
    First = contract::STATUS_FIRST,          ///< requests: the first copy
    Retransmit = contract::STATUS_RETRANSMIT ///< requests: a copy sent after a timeout;
                                             ///< switches pass it untouched
};

using p4rt::ByteOf;
using p4rt::FlagBit;

struct Op
{
    using Layout = contract::gotthard_op_t;
    static constexpr uint32_t kBytes = Layout::kBytes;
    static constexpr uint32_t kTypeByte = ByteOf<Layout::op_type>();
    static constexpr uint32_t kKeyByte = ByteOf<Layout::key>();
    static constexpr uint32_t kValueByte = ByteOf<Layout::value>();
    static_assert(Layout::op_type::kWidth == 8 && Layout::key::kWidth == 32 &&
                  Layout::value::kWidth == 64);
    OpType type = OpType::Read;
    uint32_t key = 0;
    uint64_t value = 0;
};

/// Transaction ids: (client + 1) in the top kClientIdBits bits (so that no id is 0, which the
/// switch's cache reserves), the client's attempt counter below. 48 bits of attempts cannot
/// wrap in a feasible run (one attempt takes at least a round trip and several simulator
/// events), so no two attempts ever share an id, in the store or in a switch.
constexpr uint32_t kClientIdBits = 16;
constexpr uint32_t kMaxClients = (1u << kClientIdBits) - 1;
constexpr uint64_t TxnId(uint32_t client, uint64_t attempt)
{
    return (uint64_t{client + 1} << (64 - kClientIdBits)) |
           (attempt & ((uint64_t{1} << (64 - kClientIdBits)) - 1));
}

struct Header
{
    using Layout = contract::gotthard_t;
    static constexpr uint32_t kBytes = Layout::kBytes;
    // The encoding, for code that patches encoded packets: flags in byte 0, txn_id in bytes
    // 1-8, then one byte each.
    static_assert(p4rt::FlagByteOf<Layout::msg_type>() == 0 &&
                      p4rt::FlagByteOf<Layout::from_switch>() == 0 &&
                      p4rt::FlagByteOf<Layout::replay>() == 0,
                  "the C++ encoding keeps the flags in the header's first byte");
    static constexpr uint8_t kResponseBit = FlagBit<Layout::msg_type>();
    static constexpr uint8_t kFromSwitchBit = FlagBit<Layout::from_switch>();
    static constexpr uint8_t kReplayBit = FlagBit<Layout::replay>();
    static constexpr uint32_t kTxnIdByte = ByteOf<Layout::txn_id>();
    static constexpr uint32_t kFragSeqByte = ByteOf<Layout::frag_seq>();
    static constexpr uint32_t kFragCountByte = ByteOf<Layout::frag_cnt>();
    static constexpr uint32_t kStatusByte = ByteOf<Layout::status>();
    static constexpr uint32_t kOpCountByte = ByteOf<Layout::op_cnt>();
    static_assert(Layout::txn_id::kWidth == 64 && Layout::frag_seq::kWidth == 8 &&
                  Layout::frag_cnt::kWidth == 8 && Layout::status::kWidth == 8 &&
                  Layout::op_cnt::kWidth == 8);
    // kResponseBit set means msg_type MSG_RESPONSE.
    static_assert(contract::MSG_RESPONSE == 1 && contract::MSG_REQUEST == 0);
    bool response = false;
    bool fromSwitch = false;
    /// A response the store sent before, repeated for a retransmission: its values are as of
    /// that first execution, so switches must not learn from them.
    bool replay = false;
    uint64_t txnId = 0;
    uint8_t fragSeq = 0;
    uint8_t fragCount = 1;
    Status status = Status::Ok;
    uint8_t opCount = 0;
};

struct Message
{
    Header header;
    std::vector<Op> ops;

    /// Appends the encoding to `out` (cleared first).
    void Encode(std::vector<uint8_t>& out) const;
    /// Nullopt if the bytes are too short for the header and its op_cnt operations.
    static std::optional<Message> Decode(const uint8_t* bytes, uint32_t length);
    /// Encodes the message as packets of at most kMaxOpsPerPacket operations (at least one
    /// packet), numbered by frag_seq out of frag_cnt: the paper's application-level
    /// fragmentation, which switches pass through untouched.
    void EncodeFragments(std::vector<std::vector<uint8_t>>& packets) const;
};

/// Puts one message back together from its fragments, in any order and with duplicates.
class Reassembly
{
  public:
    enum class Result
    {
        Incomplete,
        Complete,
        Invalid  ///< frag_seq out of range, or frag_cnt unlike the earlier fragments'
    };

    Result Add(Message fragment);
    /// The whole message (header of fragment 0, frag_cnt 1); valid after Complete.
    Message Take();

  private:
    std::vector<std::optional<Message>> m_parts;
    size_t m_missing = 0;
};

} // namespace incsim::gotthard

#endif
