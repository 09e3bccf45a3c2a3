#ifndef INCSIM_SWITCH_PIPELINE_H
#define INCSIM_SWITCH_PIPELINE_H

#include "sim/net/frame.h"

#include "p4/runtime/control-plane.h"
#include "p4/runtime/v1model.h"

#include <cstdint>
#include <memory>
#include <string>

namespace incsim
{

class EcmpRoutes;
class SwitchDevice;

/// v1model's drop port: an ingress that leaves egressSpec here drops the frame.
constexpr uint32_t kDropPort = p4rt::kV1DropPort;
/// Set by Egress when the frame went back to ingress (SwitchDevice::Recirculate took a copy):
/// it is not transmitted, and not counted as a drop.
constexpr uint32_t kRecirculatePort = 512;

/// The programmable part of a switch: one object per switch, holding its own tables and
/// registers. The switch calls Ingress for every arriving frame and Egress for every frame the
/// traffic manager dequeues; both work in place on the frame bytes and frame.meta.
/// The implementation is P4Pipeline (C++ generated from a P4 program); tests may plug in
/// their own.
class SwitchPipeline
{
  public:
    virtual ~SwitchPipeline() = default;

    /// Parser, ingress control and deparser. Must set meta.egressSpec (a port, the switch's
    /// CPU port, or kDropPort) or meta.mcastGroup.
    virtual void Ingress(Frame& frame) = 0;
    /// Parser, egress control and deparser, with meta.egressPort set. Setting egressSpec to
    /// kDropPort drops the frame; kRecirculatePort ends it quietly.
    virtual void Egress(Frame& frame) {}

    /// Routes computed on the topology; called at start and after every reconvergence.
    /// Pipelines that do not route (or route by their own tables) ignore it.
    virtual void InstallRoutes(const EcmpRoutes& routes) {}
    /// A port's link went down or came back.
    virtual void PortStatusChanged(uint32_t port, bool up) {}
    /// The switch crashed: all soft state (registers, learned entries) is lost.
    virtual void Reset() {}
    /// How much of Frame::pipelineState the pipeline keeps between ingress and egress (what a
    /// multicast replica must carry).
    virtual size_t StateBytes() const { return Frame::kPipelineStateCapacity; }
    /// The copies multicast group `group` makes (egress port and replication id each);
    /// nullptr if there is no such group.
    virtual const std::vector<p4rt::Replica>* MulticastGroup(uint16_t group) const
    {
        return nullptr;
    }

    virtual std::string Name() const = 0;
};

} // namespace incsim

#endif
