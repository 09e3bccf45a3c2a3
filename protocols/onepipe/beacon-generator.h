#ifndef INCSIM_ONEPIPE_BEACON_GENERATOR_H
#define INCSIM_ONEPIPE_BEACON_GENERATOR_H

#include <ns3/event-id.h>

#include <cstdint>

namespace incsim
{
class SwitchDevice;
}

namespace incsim::onepipe
{

/// A switching chip's packet generator for 1Pipe: every beacon interval, at synchronized
/// times (multiples of the interval; switch clocks are taken as exact), it injects one TICK
/// packet into the switch's ingress on the CPU port. Everything else about beacons (which
/// ports get one, the barrier they carry, expiring silent ports) is p4/onepipe.p4's.
/// One timer per switch, not per port or packet.
class BeaconGenerator
{
  public:
    BeaconGenerator(SwitchDevice& device, int64_t intervalNs);
    ~BeaconGenerator();
    BeaconGenerator(const BeaconGenerator&) = delete;
    BeaconGenerator& operator=(const BeaconGenerator&) = delete;

    void Start();

  private:
    void Tick();

    SwitchDevice& m_device;
    int64_t m_intervalNs;
    ns3::EventId m_event;
};

} // namespace incsim::onepipe

#endif
