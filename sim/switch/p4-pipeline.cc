#include "sim/switch/p4-pipeline.h"

#include "sim/core/diagnostics.h"
#include "sim/switch/switch-device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace incsim
{

namespace
{

constexpr uint64_t kDropNoRoute = 1;
constexpr uint64_t kDropTtlExpired = 2;

p4rt::V1Metadata
IngressMetadata(const StandardMetadata& meta)
{
    p4rt::V1Metadata md;
    md.ingressPort = meta.ingressPort;
    md.instanceType = meta.instanceType;
    md.packetLength = meta.packetLength;
    md.ingressGlobalTimestamp = static_cast<uint64_t>(meta.ingressTimestampPs) / 1000000;
    return md;
}

} // namespace

P4Pipeline::P4Pipeline(SwitchDevice& device, std::unique_ptr<p4rt::V1Program> program,
                       std::unique_ptr<RouteInstaller> routes)
    : m_device(device),
      m_program(std::move(program)),
      m_routes(std::move(routes))
{
    if (m_program->StateSize() > Frame::kPipelineStateCapacity)
    {
        throw ConfigError(fmt::format("P4 program '{}' keeps {} bytes of per-packet state; a frame holds "
                            "{} (Frame::kPipelineStateCapacity)",
                            m_program->Info().name, m_program->StateSize(),
                                      Frame::kPipelineStateCapacity));
    }
    m_dropReason = m_program->FindMetadataField("drop_reason");
}

std::string
P4Pipeline::Name() const
{
    return "p4:" + m_program->Info().name;
}

void
P4Pipeline::SetDropReason(Frame& frame) const
{
    const uint64_t reason = m_dropReason ? m_dropReason->Read(frame.pipelineState) : 0;
    frame.meta.dropReason = reason == kDropNoRoute      ? DropReason::NoRoute
                            : reason == kDropTtlExpired ? DropReason::TtlExpired
                                                        : DropReason::Pipeline;
}

void
P4Pipeline::Ingress(Frame& frame)
{
    StandardMetadata& meta = frame.meta;
    p4rt::V1Metadata md = IngressMetadata(meta);
    const bool recirculated =
        meta.instanceType == static_cast<uint8_t>(p4rt::InstanceType::Recirculate);
    if (recirculated)
    {
        // The state still holds the metadata egress left; the field list survives the parse.
        std::memcpy(m_scratch, frame.pipelineState, m_program->StateSize());
    }
    m_program->Parse(frame.data, frame.length, frame.pipelineState, md);
    if (recirculated)
    {
        m_program->CopyFieldList(m_scratch, frame.pipelineState, meta.preservedFieldList);
    }
    m_program->Ingress(frame.pipelineState, md);
    for (int pass = 1; md.resubmit && pass <= kMaxResubmits; ++pass)
    {
        // The frame bytes are untouched until the deparser: parse the original again.
        std::memcpy(m_scratch, frame.pipelineState, m_program->StateSize());
        const uint8_t fieldList = md.resubmitFieldList;
        md = IngressMetadata(meta);
        md.instanceType = static_cast<uint32_t>(p4rt::InstanceType::Resubmit);
        m_program->Parse(frame.data, frame.length, frame.pipelineState, md);
        m_program->CopyFieldList(m_scratch, frame.pipelineState, fieldList);
        m_program->Ingress(frame.pipelineState, md);
    }
    if (md.clone)
    {
        CloneFromIngress(frame, md.cloneSession, md.cloneFieldList);
    }
    meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::Normal);
    meta.mcastGroup = static_cast<uint16_t>(md.mcastGrp);
    meta.priority = static_cast<uint8_t>(md.priority);
    meta.egressSpec = md.resubmit ? kDropPort : md.egressSpec;
    if (meta.egressSpec == kDropPort && meta.mcastGroup == 0)
    {
        SetDropReason(frame);
    }
}

void
P4Pipeline::CloneFromIngress(const Frame& frame, uint32_t session, uint8_t fieldList)
{
    const auto port = Control().CloneSessionPort(session);
    if (!port)
    {
        return;
    }
    FramePtr copy = FramePool::Instance().Clone(frame);
    copy->meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::IngressClone);
    p4rt::V1Metadata md = IngressMetadata(copy->meta);
    md.instanceType = copy->meta.instanceType;
    m_program->Parse(copy->data, copy->length, copy->pipelineState, md);
    m_program->CopyFieldList(frame.pipelineState, copy->pipelineState, fieldList);
    m_device.SendFromCpu(std::move(copy), *port);
}

void
P4Pipeline::Egress(Frame& frame)
{
    StandardMetadata& meta = frame.meta;
    p4rt::V1Metadata md;
    md.ingressPort = meta.ingressPort;
    md.egressPort = meta.egressPort;
    md.egressRid = meta.replicationId;
    md.instanceType = meta.instanceType;
    md.packetLength = frame.wireLength;
    md.ingressGlobalTimestamp = static_cast<uint64_t>(meta.ingressTimestampPs) / 1000000;
    m_program->Egress(frame.pipelineState, md);
    const uint32_t length =
        m_program->Deparse(frame.pipelineState, frame.data, frame.length, Frame::kCapacity);
    if (length == 0 && frame.length != 0)
    {
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::Pipeline;
        return;
    }
    frame.wireLength = frame.wireLength + length - frame.length;
    frame.length = length;
    if (md.clone)
    {
        CloneFromEgress(frame, md.cloneSession, md.cloneFieldList);
    }
    if (md.truncateLength > 0)
    {
        frame.wireLength = std::min(frame.wireLength, md.truncateLength);
        frame.length = std::min(frame.length, md.truncateLength);
    }
    if (md.egressSpec == kDropPort)
    {
        meta.egressSpec = kDropPort;
        SetDropReason(frame);
        return;
    }
    if (md.recirculate)
    {
        FramePtr copy = FramePool::Instance().Clone(frame);
        copy->meta = StandardMetadata{};
        copy->meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::Recirculate);
        copy->meta.packetLength = copy->wireLength;
        copy->meta.preservedFieldList = md.recirculateFieldList;
        m_device.Recirculate(std::move(copy));
        meta.egressSpec = kRecirculatePort;
    }
}

void
P4Pipeline::CloneFromEgress(const Frame& frame, uint32_t session, uint8_t fieldList)
{
    const auto port = Control().CloneSessionPort(session);
    if (!port)
    {
        return;
    }
    // The packet as deparsed, parsed again, with only the field list kept.
    FramePtr copy = FramePool::Instance().Clone(frame);
    copy->meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::EgressClone);
    p4rt::V1Metadata md = IngressMetadata(copy->meta);
    md.instanceType = copy->meta.instanceType;
    m_program->Parse(copy->data, copy->length, copy->pipelineState, md);
    m_program->CopyFieldList(frame.pipelineState, copy->pipelineState, fieldList);
    m_device.SendFromCpu(std::move(copy), *port);
}

const std::vector<p4rt::Replica>*
P4Pipeline::MulticastGroup(uint16_t group) const
{
    return m_program->Control().MulticastGroup(group);
}

void
P4Pipeline::InstallRoutes(const EcmpRoutes& routes)
{
    if (m_routes)
    {
        m_routes->InstallRoutes(routes, Control());
    }
}

void
P4Pipeline::PortStatusChanged(uint32_t port, bool up)
{
    if (m_routes)
    {
        m_routes->PortStatusChanged(port, up, Control());
    }
}

void
P4Pipeline::Reset()
{
    m_program->Reset();
}

} // namespace incsim
