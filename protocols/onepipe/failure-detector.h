#ifndef INCSIM_ONEPIPE_FAILURE_DETECTOR_H
#define INCSIM_ONEPIPE_FAILURE_DETECTOR_H

#include <ns3/event-id.h>

#include <cstdint>
#include <functional>

namespace incsim
{
class SwitchDevice;
}

namespace incsim::onepipe
{

/// A switch's commit-barrier inputs as its control plane sees them: onepipe.p4's registers on
/// the chip, the BeaconProcessor's state off it.
class CommitInputs
{
  public:
    virtual ~CommitInputs() = default;
    /// A bit per port that left the best-effort live set (silent for the port timeout) and
    /// still counts in the commit barrier (only the controller removes it).
    virtual uint32_t SilentCommitInputs() const = 0;
    /// The last commit barrier received on `port`.
    virtual uint64_t LastCommit(uint32_t port) const = 0;
    /// Resume: `port` no longer counts in the commit barrier.
    virtual void RemoveCommitInput(uint32_t port) = 0;
};

/// onepipe.p4's registers live_ports, commit_live and port_commit, through the control plane.
class ChipCommitInputs : public CommitInputs
{
  public:
    explicit ChipCommitInputs(SwitchDevice& device) : m_device(device) {}
    uint32_t SilentCommitInputs() const override;
    uint64_t LastCommit(uint32_t port) const override;
    void RemoveCommitInput(uint32_t port) override;

  private:
    SwitchDevice& m_device;
};

/// Detect (paper 5.2): the switch's control plane, once per beacon interval between ticks,
/// reports each port that became silent while a commit input, once, with its last commit
/// barrier (spec M6). O(ports) per interval; nothing per packet.
class FailureDetector
{
  public:
    using Report = std::function<void(uint32_t node, uint32_t port, uint64_t commit)>;

    FailureDetector(SwitchDevice& device, CommitInputs& inputs, int64_t intervalPs,
                    Report report);
    ~FailureDetector();
    FailureDetector(const FailureDetector&) = delete;
    FailureDetector& operator=(const FailureDetector&) = delete;

    void Start();

  private:
    void Poll();

    SwitchDevice& m_device;
    CommitInputs& m_inputs;
    int64_t m_intervalPs;
    Report m_report;
    uint32_t m_reported = 0; ///< ports already reported
    ns3::EventId m_poll;
};

} // namespace incsim::onepipe

#endif
