#ifndef INCSIM_P4RT_V1MODEL_SWITCH_H
#define INCSIM_P4RT_V1MODEL_SWITCH_H

// A whole v1model switch around one generated program, with no timing: each packet runs to
// completion through ingress, the packet replication engine (multicast, clones, resubmit,
// recirculate) and egress, as BMv2's simple_switch sequences them. This is what STF scripts
// run against (`incsim p4 test`); the simulated switch (sim/switch) adds queues and time.

#include "p4/runtime/stf.h"
#include "p4/runtime/v1model.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace incsim::p4rt
{

class V1SwitchTarget : public StfTarget
{
  public:
    explicit V1SwitchTarget(std::unique_ptr<V1Program> program);

    ControlPlane& Control() override { return m_program->Control(); }
    void InjectPacket(uint32_t port, const std::vector<uint8_t>& data) override;
    std::vector<StfOutputPacket> Drain() override;

  private:
    struct Packet
    {
        std::vector<uint8_t> bytes;  // capacity: the frame plus room for headers added
        uint32_t length = 0;
        std::vector<uint64_t> state;
        V1Metadata md;
    };

    Packet NewPacket(const uint8_t* data, uint32_t length) const;
    /// A copy of `packet` (its bytes as they are now) for clone session `session`, through
    /// egress as `type`.
    void Clone(const Packet& packet, uint32_t session, uint8_t fieldList, InstanceType type,
               int passes);
    void IngressPass(Packet packet, uint32_t port, InstanceType type, const Packet* preserveFrom,
                     uint8_t fieldList, int passes);
    void EgressPass(Packet packet, uint32_t port, uint32_t rid, uint32_t instanceType,
                    int passes);

    std::unique_ptr<V1Program> m_program;
    std::vector<StfOutputPacket> m_outputs;
};

} // namespace incsim::p4rt

#endif
