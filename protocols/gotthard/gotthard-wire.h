#ifndef INCSIM_GOTTHARD_GOTTHARD_WIRE_H
#define INCSIM_GOTTHARD_GOTTHARD_WIRE_H

#include <cstdint>
#include <optional>
#include <vector>

namespace incsim::gotthard
{

// The wire format of p4/gotthard.p4 (keep the two in step): after UDP to or from kStorePort,
// a 13-byte Header (paper Fig. 5, with a 64-bit txn_id and a replay flag) and
// Header::opCount operations of 13 bytes.

constexpr uint16_t kStorePort = 0x4754;
constexpr uint32_t kMaxOpsPerPacket = 10;

enum class OpType : uint8_t
{
    Read = 1,
    Write = 2,
    Compare = 3
};

enum class Status : uint8_t
{
    Ok = 0,           ///< responses
    Abort = 1,        ///< responses
    First = 0,        ///< requests: the first copy
    Retransmit = 2    ///< requests: a copy sent after a timeout; switches pass it untouched
};

struct Op
{
    static constexpr uint32_t kBytes = 13;
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
    static constexpr uint32_t kBytes = 13;
    // The encoding, for code that patches encoded packets: flags in byte 0, txn_id in bytes
    // 1-8, then one byte each.
    static constexpr uint8_t kResponseBit = 0x80;
    static constexpr uint8_t kFromSwitchBit = 0x40;
    static constexpr uint8_t kReplayBit = 0x20;
    static constexpr uint32_t kFragSeqByte = 9;
    static constexpr uint32_t kFragCountByte = 10;
    static constexpr uint32_t kStatusByte = 11;
    static constexpr uint32_t kOpCountByte = 12;
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
