#include "protocols/onepipe/beacon-generator.h"

#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/switch/switch-device.h"

#include <ns3/simulator.h>

namespace incsim::onepipe
{

BeaconGenerator::BeaconGenerator(SwitchDevice& device, int64_t intervalNs)
    : m_device(device),
      m_intervalNs(intervalNs)
{
}

BeaconGenerator::~BeaconGenerator()
{
    m_event.Cancel();
}

void
BeaconGenerator::Start()
{
    const int64_t now = NowPs() / kPsPerNs;
    const int64_t next = (now / m_intervalNs + 1) * m_intervalNs;
    m_event = ns3::Simulator::Schedule(ns3::NanoSeconds(next - now), &BeaconGenerator::Tick, this);
}

void
BeaconGenerator::Tick()
{
    if (m_device.IsUp())
    {
        Header header;
        header.opcode = Opcode::Tick;
        FramePtr frame = MakeBeaconFrame(0, header, 0);
        m_device.InjectFromCpu(std::move(frame));
    }
    m_event = ns3::Simulator::Schedule(ns3::NanoSeconds(m_intervalNs), &BeaconGenerator::Tick, this);
}

} // namespace incsim::onepipe
