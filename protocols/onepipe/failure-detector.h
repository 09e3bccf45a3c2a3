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
    /// A bit per port in the best-effort live set (admitted: a returning port is back).
    virtual uint32_t LivePorts() const = 0;
    /// Re-admission: `port` counts in the commit barrier again. The commit barriers the
    /// switch sends stay at or above its marks, so none goes backwards; a C_up mark at the
    /// maximum (every input below had been removed) starts over from the inputs below.
    virtual void ReadmitCommitInput(uint32_t port) = 0;
};

/// onepipe.p4's registers live_ports, commit_live and port_commit, through the control plane.
class ChipCommitInputs : public CommitInputs
{
  public:
    /// `upPorts`: the ports towards a switch of the same or a higher tier (onepipe.p4's).
    ChipCommitInputs(SwitchDevice& device, uint32_t upPorts)
        : m_device(device),
          m_upPorts(upPorts)
    {
    }
    uint32_t SilentCommitInputs() const override;
    uint64_t LastCommit(uint32_t port) const override;
    void RemoveCommitInput(uint32_t port) override;
    uint32_t LivePorts() const override;
    void ReadmitCommitInput(uint32_t port) override;

  private:
    SwitchDevice& m_device;
    uint32_t m_upPorts;
};

/// Detect (paper 5.2): the switch's control plane, once per beacon interval between ticks,
/// reports each port that became silent while a commit input, once, with its last commit
/// barrier (spec M6). Rejoining (docs/onepipe.md, "Receiver recovery and rejoin"): it reports
/// a reported port that is back in the best-effort live set (a repair), re-admits commit
/// inputs the controller names once their commit barrier passes the switch's, and after the
/// switch itself recovers (its commit inputs wiped) re-admits every port the same way,
/// telling the controller each re-admission it starts and ends. O(ports) per interval;
/// nothing per packet.
class FailureDetector
{
  public:
    using Report = std::function<void(uint32_t node, uint32_t port, uint64_t commit)>;
    /// A repair, or a re-admission started (`done` false) or finished (`done` true).
    using PortEvent = std::function<void(uint32_t node, uint32_t port, bool done)>;

    struct Callbacks
    {
        Report report;
        PortEvent repaired;
        PortEvent readmission;
    };

    FailureDetector(SwitchDevice& device, CommitInputs& inputs, int64_t intervalPs,
                    Callbacks callbacks);
    ~FailureDetector();
    FailureDetector(const FailureDetector&) = delete;
    FailureDetector& operator=(const FailureDetector&) = delete;

    void Start();
    /// The controller asks to re-admit `port` as a commit input.
    void Readmit(uint32_t port) { m_readmitting |= 1u << port; }

  private:
    void Poll();

    SwitchDevice& m_device;
    CommitInputs& m_inputs;
    int64_t m_intervalPs;
    Callbacks m_callbacks;
    uint32_t m_reported = 0;    ///< ports reported and not yet back
    uint32_t m_readmitting = 0; ///< ports to re-admit as commit inputs
    uint32_t m_returning = 0;   ///< after a crash: ports to re-admit once live
    bool m_wasDown = false;
    ns3::EventId m_poll;
};

} // namespace incsim::onepipe

#endif
