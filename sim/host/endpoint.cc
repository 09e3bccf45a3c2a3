#include "sim/host/endpoint.h"

#include "sim/host/host-cpu.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"

#include <algorithm>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(Endpoint);

ns3::TypeId
Endpoint::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::Endpoint").SetParent<ns3::Object>().SetGroupName("Incsim");
    return tid;
}

Endpoint::Endpoint() = default;
Endpoint::~Endpoint() = default;

uint32_t
Endpoint::HostIndex() const
{
    return m_host->Index();
}

void
Endpoint::Bind(HostNode* host, uint16_t port)
{
    m_host = host;
    m_port = port;
}

bool
Endpoint::Send(uint32_t dstHost,
               uint16_t dstPort,
               const uint8_t* bytes,
               uint32_t materialised,
               uint32_t payloadBytes,
               uint8_t priority,
               uint8_t ecn)
{
    return m_host->SendUdp(m_port, dstHost, dstPort, bytes, materialised, payloadBytes, priority,
                           ecn);
}

int64_t
Endpoint::LocalTimeNs() const
{
    return m_host->Clock().NowNs();
}

void
Endpoint::Charge(int64_t servicePs, std::function<void()> done)
{
    m_host->Cpu().Execute(servicePs, std::move(done));
}

int64_t
Endpoint::MessageCostPs() const
{
    return m_host->MessageCostPs();
}

int64_t
Endpoint::NicBacklogPs() const
{
    int64_t backlog = 0;
    for (uint32_t nic = 0; nic < m_host->NumPorts(); ++nic)
    {
        backlog = std::max(backlog, m_host->Port(nic).BacklogPs());
    }
    return backlog;
}

void
Endpoint::DoDispose()
{
    m_host = nullptr;
    ns3::Object::DoDispose();
}

} // namespace incsim
