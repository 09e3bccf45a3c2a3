#ifndef INCSIM_NET_FRAME_H
#define INCSIM_NET_FRAME_H

#include "sim/net/drop-reason.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace incsim
{

/// Per-packet metadata a switch carries from ingress through the traffic manager to egress,
/// mirroring v1model's standard_metadata.
struct StandardMetadata
{
    uint32_t ingressPort = 0;
    /// Set by ingress: an egress port, the CPU port, or kDropPort.
    uint32_t egressSpec = 0;
    /// Set by the traffic manager before egress.
    uint32_t egressPort = 0;
    /// Non-zero: replicate to this multicast group instead of egressSpec.
    uint16_t mcastGroup = 0;
    /// Replica number within a multicast group (v1model egress_rid).
    uint16_t replicationId = 0;
    /// Strict priority: the highest non-empty queue is served first.
    uint8_t priority = 0;
    /// v1model instance_type: 0 normal, 1 ingress clone, 5 multicast replica, 6 resubmit ...
    uint8_t instanceType = 0;
    /// A recirculated frame: the program's @field_list whose metadata it keeps.
    uint8_t preservedFieldList = 0;
    /// Passes this frame (and the frames it was recirculated from) made through ingress.
    uint8_t passes = 0;
    /// Frames queued at its egress port when it was enqueued and when it left.
    uint32_t enqQdepth = 0;
    uint32_t deqQdepth = 0;
    uint32_t packetLength = 0;
    /// Simulated time (ps) the frame entered the ingress pipeline.
    int64_t ingressTimestampPs = 0;
    /// Why the pipeline dropped the frame, when it set egressSpec to kDropPort.
    DropReason dropReason = DropReason::Pipeline;
};

/// One Ethernet frame. The first `length` bytes are materialised (headers and the protocol's
/// own bytes); the rest of `wireLength` is payload whose contents no model reads, so it is
/// not stored. Frames are pooled: see FramePool.
struct Frame
{
    static constexpr uint32_t kCapacity = 960;
    /// Bytes a switch program may keep with the frame from its parser to its deparser (the
    /// parsed headers and metadata of a generated P4 pipeline; see sim/switch/p4-pipeline.h).
    static constexpr uint32_t kPipelineStateCapacity = 1024;

    uint64_t uid = 0;
    /// Simulated time (ps) at which the sending host handed the frame to its NIC.
    int64_t createdPs = 0;
    uint32_t length = 0;
    uint32_t wireLength = 0;
    StandardMetadata meta;
    uint8_t data[kCapacity];
    alignas(8) uint8_t pipelineState[kPipelineStateCapacity];
};

class FramePool;

struct FrameReturner
{
    void operator()(Frame* frame) const;
};

/// Owning handle; destroying it returns the frame to the pool.
using FramePtr = std::unique_ptr<Frame, FrameReturner>;

/// A free list of frames. Frames are recycled, so the steady-state per-packet path never calls
/// the allocator. Single-threaded, like the simulator.
class FramePool
{
  public:
    static FramePool& Instance();

    FramePtr Allocate();
    /// A copy with a fresh uid (for multicast replicas and clones), with the first
    /// `stateBytes` of the pipeline state: what the switch's program uses, or none when the
    /// copy is parsed again.
    FramePtr Clone(const Frame& frame, size_t stateBytes);

    /// Restarts uid numbering, so each run's traces are identical whatever ran before it.
    void ResetUids() { m_nextUid = 1; }

    size_t Outstanding() const { return m_outstanding; }
    size_t Capacity() const { return m_all.size(); }

  private:
    friend struct FrameReturner;
    void Release(Frame* frame);

    std::vector<std::unique_ptr<Frame>> m_all;
    std::vector<Frame*> m_free;
    size_t m_outstanding = 0;
    uint64_t m_nextUid = 1;
};

} // namespace incsim

#endif
