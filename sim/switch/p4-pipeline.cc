#include "sim/switch/p4-pipeline.h"

#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/switch/switch-device.h"

#include "lib_headers-contract.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace incsim
{

namespace
{

// The drop reasons every program that includes p4/lib/headers.p4 declares; the switch knows
// no program, so it reads them from that library's contract.
namespace lib = p4gen::lib_headers::contract;
constexpr uint64_t kDropNoRoute = lib::DROP_NO_ROUTE;
constexpr uint64_t kDropTtlExpired = lib::DROP_TTL_EXPIRED;
constexpr uint64_t kDropConsumed = lib::DROP_CONSUMED;

uint64_t
Microseconds(int64_t ps)
{
    return static_cast<uint64_t>(ps) / 1000000;
}

/// What a pass through ingress starts from: the frame's metadata as the switch set it.
p4rt::V1Metadata
IngressMetadata(const StandardMetadata& meta)
{
    p4rt::V1Metadata md;
    md.ingressPort = meta.ingressPort;
    md.instanceType = meta.instanceType;
    md.packetLength = meta.packetLength;
    md.ingressGlobalTimestamp = Microseconds(meta.ingressTimestampPs);
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
        throw ConfigError(fmt::format("P4 program '{}' keeps {} bytes of per-packet state; a "
                                      "frame holds {} (Frame::kPipelineStateCapacity)",
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
                            : reason == kDropConsumed   ? DropReason::Consumed
                                                        : DropReason::Pipeline;
}

void
P4Pipeline::ReparseKeeping(Frame& frame, const p4rt::V1Metadata& md, uint8_t fieldList)
{
    std::memcpy(m_scratch, frame.pipelineState, m_program->StateSize());
    m_program->Reparse(frame.data, frame.length, frame.pipelineState, md, m_scratch, fieldList);
}

void
P4Pipeline::Ingress(Frame& frame)
{
    StandardMetadata& meta = frame.meta;
    p4rt::V1Metadata md = IngressMetadata(meta);
    if (meta.instanceType == static_cast<uint8_t>(p4rt::InstanceType::Recirculate))
    {
        // The state still holds what egress left; the field list survives the parse.
        ReparseKeeping(frame, md, meta.preservedFieldList);
    }
    else
    {
        m_program->Parse(frame.data, frame.length, frame.pipelineState, md);
    }
    m_program->Ingress(frame.pipelineState, md);
    // As simple_switch: clone first, then resubmit (the frame bytes are untouched until the
    // deparser, so every pass parses the original packet), then forward.
    while (true)
    {
        if (md.clone)
        {
            Clone(frame, md.cloneSession, md.cloneFieldList, p4rt::InstanceType::IngressClone,
                  /*afterEgress=*/false);
        }
        if (!md.resubmit || ++meta.passes >= p4rt::kMaxPasses)
        {
            break;
        }
        const uint8_t fieldList = md.resubmitFieldList;
        md = IngressMetadata(meta);
        md.instanceType = static_cast<uint32_t>(p4rt::InstanceType::Resubmit);
        ReparseKeeping(frame, md, fieldList);
        m_program->Ingress(frame.pipelineState, md);
    }
    // Unicast leaves ingress as a normal packet, whatever brought it in.
    meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::Normal);
    meta.priority = static_cast<uint8_t>(md.priority);
    if (md.resubmit)
    {
        meta.mcastGroup = 0;  // resubmitted too often
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::Pipeline;
        return;
    }
    meta.mcastGroup = static_cast<uint16_t>(md.mcastGrp);
    meta.egressSpec = md.egressSpec;
    if (meta.egressSpec == kDropPort && meta.mcastGroup == 0)
    {
        SetDropReason(frame);
    }
}

void
P4Pipeline::Clone(const Frame& frame, uint32_t session, uint8_t fieldList,
                  p4rt::InstanceType type, bool afterEgress)
{
    const auto port = Control().CloneSessionPort(session);
    if (!port)
    {
        return;
    }
    // The packet as it is now (original bytes in ingress, deparsed in egress), parsed again,
    // with only the field list kept.
    FramePtr copy = FramePool::Instance().Clone(frame, 0); // Reparse rebuilds its state
    copy->meta.instanceType = static_cast<uint8_t>(type);
    p4rt::V1Metadata md = IngressMetadata(copy->meta);
    m_program->Reparse(copy->data, copy->length, copy->pipelineState, md, frame.pipelineState,
                       fieldList);
    if (afterEgress)
    {
        m_device.EnqueueAfterEgress(std::move(copy), *port);
    }
    else
    {
        m_device.SendFromCpu(std::move(copy), *port);
    }
}

void
P4Pipeline::Egress(Frame& frame)
{
    StandardMetadata& meta = frame.meta;
    p4rt::V1Metadata md = IngressMetadata(meta);
    md.egressPort = meta.egressPort;
    md.egressRid = meta.replicationId;
    md.packetLength = frame.wireLength;
    const int64_t now = NowPs();
    md.egressGlobalTimestamp = Microseconds(now);
    // Frames are enqueued as ingress finishes (the pipeline delay is folded into the link).
    md.enqTimestamp = static_cast<uint32_t>(md.ingressGlobalTimestamp);
    md.enqQdepth = meta.enqQdepth;
    md.deqTimedelta = static_cast<uint32_t>(Microseconds(now - meta.ingressTimestampPs));
    md.deqQdepth = meta.deqQdepth;
    m_program->Egress(frame.pipelineState, md);
    const std::optional<uint32_t> length =
        m_program->Deparse(frame.pipelineState, frame.data, frame.length, Frame::kCapacity);
    if (!length)
    {
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::Pipeline;
        return;
    }
    frame.wireLength = frame.wireLength + *length - frame.length;
    frame.length = *length;
    if (md.clone)
    {
        Clone(frame, md.cloneSession, md.cloneFieldList, p4rt::InstanceType::EgressClone,
              /*afterEgress=*/true);
    }
    if (md.egressSpec == kDropPort)
    {
        meta.egressSpec = kDropPort;
        SetDropReason(frame);
        return;
    }
    if (md.recirculate)
    {
        if (meta.passes + 1 >= p4rt::kMaxPasses)
        {
            meta.egressSpec = kDropPort;
            meta.dropReason = DropReason::Pipeline;
            return;
        }
        FramePtr copy = FramePool::Instance().Clone(frame, StateBytes());
        copy->meta = StandardMetadata{};
        copy->meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::Recirculate);
        copy->meta.packetLength = copy->wireLength;
        copy->meta.preservedFieldList = md.recirculateFieldList;
        copy->meta.passes = static_cast<uint8_t>(meta.passes + 1);
        m_device.Recirculate(std::move(copy));
        meta.egressSpec = kRecirculatePort;
        return;
    }
    if (md.truncateLength > 0)
    {
        frame.wireLength = std::min(frame.wireLength, md.truncateLength);
        frame.length = std::min(frame.length, md.truncateLength);
    }
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
