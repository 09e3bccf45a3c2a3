#include "p4/runtime/v1model-switch.h"

#include <algorithm>

namespace incsim::p4rt
{

namespace
{

/// Room for headers a program adds (setValid) beyond the packet's own length.
constexpr uint32_t kHeadroom = 1024;

} // namespace

V1SwitchTarget::V1SwitchTarget(std::unique_ptr<V1Program> program)
    : m_program(std::move(program))
{
}

V1SwitchTarget::Packet
V1SwitchTarget::NewPacket(const uint8_t* data, uint32_t length) const
{
    Packet packet;
    packet.bytes.assign(data, data + length);
    packet.bytes.resize(length + kHeadroom);
    packet.length = length;
    packet.state.assign(m_program->StateSize() / 8, 0);
    return packet;
}

void
V1SwitchTarget::InjectPacket(uint32_t port, const std::vector<uint8_t>& data)
{
    IngressPass(NewPacket(data.data(), static_cast<uint32_t>(data.size())), port,
                InstanceType::Normal, nullptr, 0, 0);
}

std::vector<StfOutputPacket>
V1SwitchTarget::Drain()
{
    return std::exchange(m_outputs, {});
}

void
V1SwitchTarget::Clone(const Packet& packet, uint32_t session, uint8_t fieldList,
                      InstanceType type, int passes)
{
    const auto port = m_program->Control().CloneSessionPort(session);
    if (!port)
    {
        return;
    }
    // Parsed again, with only the field list kept (BMv2's copy_ingress_pkt; for egress clones
    // BMv2 copies the parsed headers instead, which the deparsed bytes reproduce).
    Packet copy = NewPacket(packet.bytes.data(), packet.length);
    copy.md.ingressPort = packet.md.ingressPort;
    copy.md.instanceType = static_cast<uint32_t>(type);
    copy.md.packetLength = packet.length;
    m_program->Reparse(copy.bytes.data(), copy.length, copy.state.data(), copy.md,
                       packet.state.data(), fieldList);
    EgressPass(std::move(copy), *port, 0, static_cast<uint32_t>(type), passes);
}

void
V1SwitchTarget::IngressPass(Packet packet, uint32_t port, InstanceType type,
                            const Packet* preserveFrom, uint8_t fieldList, int passes)
{
    if (passes >= kMaxPasses)
    {
        return;
    }
    V1Metadata& md = packet.md;
    md = V1Metadata{};
    md.ingressPort = port;
    md.instanceType = static_cast<uint32_t>(type);
    md.packetLength = packet.length;
    if (preserveFrom)
    {
        m_program->Reparse(packet.bytes.data(), packet.length, packet.state.data(), md,
                           preserveFrom->state.data(), fieldList);
    }
    else
    {
        m_program->Parse(packet.bytes.data(), packet.length, packet.state.data(), md);
    }
    m_program->Ingress(packet.state.data(), md);

    if (md.clone)
    {
        Clone(packet, md.cloneSession, md.cloneFieldList, InstanceType::IngressClone, passes);
    }
    if (md.resubmit)
    {
        Packet again = NewPacket(packet.bytes.data(), packet.length);
        IngressPass(std::move(again), port, InstanceType::Resubmit, &packet,
                    md.resubmitFieldList, passes + 1);
        return;
    }
    if (md.mcastGrp != 0)
    {
        const std::vector<Replica>* replicas = m_program->Control().MulticastGroup(md.mcastGrp);
        if (!replicas)
        {
            return;
        }
        for (const Replica& replica : *replicas)
        {
            EgressPass(packet, replica.port, replica.rid,
                       static_cast<uint32_t>(InstanceType::Replication), passes);
        }
        return;
    }
    if (md.egressSpec == kV1DropPort)
    {
        return;
    }
    // Unicast leaves ingress as a normal packet, whatever brought it in (as in simple_switch).
    const uint32_t egressPort = md.egressSpec;
    EgressPass(std::move(packet), egressPort, 0, static_cast<uint32_t>(InstanceType::Normal),
               passes);
}

void
V1SwitchTarget::EgressPass(Packet packet, uint32_t port, uint32_t rid, uint32_t instanceType,
                           int passes)
{
    V1Metadata& md = packet.md;
    md.ClearRequests();
    md.egressPort = port;
    md.egressRid = rid;
    md.instanceType = instanceType;
    md.packetLength = packet.length;
    m_program->Egress(packet.state.data(), md);
    const std::optional<uint32_t> length =
        m_program->Deparse(packet.state.data(), packet.bytes.data(), packet.length,
                           static_cast<uint32_t>(packet.bytes.size()));
    if (!length)
    {
        return;  // the emitted headers did not fit
    }
    packet.length = *length;
    if (md.clone && passes + 1 < kMaxPasses)
    {
        Clone(packet, md.cloneSession, md.cloneFieldList, InstanceType::EgressClone, passes + 1);
    }
    if (md.egressSpec == kV1DropPort)
    {
        return;
    }
    if (md.recirculate)
    {
        Packet again = NewPacket(packet.bytes.data(), packet.length);
        IngressPass(std::move(again), 0, InstanceType::Recirculate, &packet,
                    md.recirculateFieldList, passes + 1);
        return;
    }
    uint32_t sent = packet.length;
    if (md.truncateLength > 0)
    {
        sent = std::min(sent, md.truncateLength);
    }
    m_outputs.push_back({port, std::vector<uint8_t>(packet.bytes.begin(),
                                                    packet.bytes.begin() + sent)});
}

} // namespace incsim::p4rt
