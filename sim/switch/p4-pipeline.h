#ifndef INCSIM_SWITCH_P4_PIPELINE_H
#define INCSIM_SWITCH_P4_PIPELINE_H

#include "sim/switch/pipeline.h"

#include "p4/runtime/v1model.h"

#include <memory>
#include <string>

namespace incsim
{

class SwitchDevice;

/// Decides what a switch's tables hold for the routes computed on the topology, through the
/// program's control plane (as a routing controller would). See EcmpRouteInstaller.
class RouteInstaller
{
  public:
    virtual ~RouteInstaller() = default;
    virtual void InstallRoutes(const EcmpRoutes& routes, p4rt::ControlPlane& control) = 0;
    virtual void PortStatusChanged(uint32_t port, bool up, p4rt::ControlPlane& control) = 0;
};

/// A switch running C++ generated from a P4 program (v1model).
///
/// The frame stays parsed from ingress to egress: the program's per-packet state (headers,
/// metadata) travels in Frame::pipelineState through the traffic manager, and the deparser
/// rewrites the frame bytes once, at the end of egress. Multicast groups and clone sessions are
/// the program's (its ControlPlane's). Resubmit, recirculation, and ingress-to-egress and
/// egress-to-egress clones follow BMv2's simple_switch (see p4rt::V1SwitchTarget, which runs the
/// same program without timing for STF).
///
/// Drop reasons: when the program drops a packet and has a user metadata field
/// `drop_reason`, p4/lib/headers.p4's DROP_NO_ROUTE, DROP_TTL_EXPIRED and DROP_CONSUMED (read
/// from that library's generated contract) mean no route, TTL expired and consumed; anything
/// else is a program drop.
class P4Pipeline : public SwitchPipeline
{
  public:
    /// Throws ConfigError if the program's per-packet state does not fit in a Frame.
    P4Pipeline(SwitchDevice& device, std::unique_ptr<p4rt::V1Program> program,
               std::unique_ptr<RouteInstaller> routes = nullptr);

    void Ingress(Frame& frame) override;
    void Egress(Frame& frame) override;
    void InstallRoutes(const EcmpRoutes& routes) override;
    void PortStatusChanged(uint32_t port, bool up) override;
    void Reset() override;
    size_t StateBytes() const override { return m_program->StateSize(); }
    const std::vector<p4rt::Replica>* MulticastGroup(uint16_t group) const override;
    std::string Name() const override;

    p4rt::ControlPlane& Control() { return m_program->Control(); }
    const p4rt::ProgramInfo& ProgramInfo() const { return m_program->Info(); }

  private:
    void SetDropReason(Frame& frame) const;
    /// A copy of the frame for clone session `session`, into its port's queue.
    /// Parses the frame's bytes again, keeping field list `fieldList` of its current state.
    void ReparseKeeping(Frame& frame, const p4rt::V1Metadata& md, uint8_t fieldList);
    void Clone(const Frame& frame, uint32_t session, uint8_t fieldList, p4rt::InstanceType type,
               bool afterEgress);

    SwitchDevice& m_device;
    std::unique_ptr<p4rt::V1Program> m_program;
    std::unique_ptr<RouteInstaller> m_routes;
    const p4rt::V1Program::MetadataField* m_dropReason = nullptr;
    alignas(8) uint8_t m_scratch[Frame::kPipelineStateCapacity];
};

} // namespace incsim

#endif
