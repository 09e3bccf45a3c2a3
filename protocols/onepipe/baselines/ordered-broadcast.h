#ifndef INCSIM_ONEPIPE_BASELINES_ORDERED_BROADCAST_H
#define INCSIM_ONEPIPE_BASELINES_ORDERED_BROADCAST_H

#include "protocols/onepipe/baselines/baseline-wire.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/onepipe/run-records.h"
#include "sim/host/endpoint.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

namespace incsim::onepipe
{

/// What every baseline process of a run shares.
struct BaselineSetup
{
    uint32_t processes = 0;
    uint32_t processesPerHost = 1;
    uint8_t priority = 0;
    Stats* stats = nullptr;
    Traces traces;
};

/// The baseline header at the start of a datagram (nullopt if it is too short to hold one).
std::optional<BaselineHeader> ReadBaselineHeader(const Datagram& datagram);

/// Base of the total-order broadcast baselines of 1Pipe's Fig. 8: a process that broadcasts
/// to every other process and delivers in one global order of keys. It keeps the 1Pipe
/// processes' bookkeeping (per-destination message sequence numbers, the onepipe_sends and
/// onepipe_deliveries traces, latency from the application's call) and CPU model (the host
/// CPU spends /hosts/message_cost per message sent, per destination, and per delivery), so
/// the same checker and figures apply. Subclasses decide how a broadcast gets its key and when
/// a held key may be delivered. The baselines assume a lossless network, as the paper's
/// comparison does: a lost packet stalls delivery.
class OrderedBroadcast : public Endpoint
{
  public:
    void Configure(uint32_t processId, const BaselineSetup& setup);
    uint32_t ProcessId() const { return m_processId; }

    /// The application's broadcast: `scattering` names every other process.
    void Broadcast(const std::vector<Outgoing>& scattering);
    /// Called once per broadcast when it has left the host (after its CPU cost, for the token
    /// once the token came, and once the NIC has sent it), for an application that blocks on
    /// its sends.
    void SetTransmittedCallback(std::function<void()> callback)
    {
        m_onTransmitted = std::move(callback);
    }

  protected:
    struct Held
    {
        uint64_t key;
        uint32_t src;
        uint32_t sequence; ///< this receiver's message of the broadcast
        bool own;          ///< the process's own broadcast: takes its place, not delivered
        bool operator>(const Held& other) const
        {
            return key != other.key ? key > other.key : src > other.src;
        }
    };

    /// A broadcast whose CPU cost is paid; its messages are numbered from `firstSequence`.
    virtual void Transmit(uint32_t firstSequence, uint32_t bytes) = 0;
    /// A baseline packet arrived for this process.
    virtual void Receive(const BaselineHeader& header) = 0;
    /// Whether the lowest held broadcast, `next`, may be delivered now.
    virtual bool Deliverable(const Held& next) const = 0;
    /// Called as each held broadcast leaves the queue, in key order.
    virtual void Released(const Held& /*held*/) {}

    /// Sends a baseline packet of `payloadBytes` (header included) to a process.
    bool SendTo(uint32_t process, const BaselineHeader& header, uint32_t payloadBytes);
    bool SendToHost(uint32_t host, uint16_t port, const BaselineHeader& header,
                    uint32_t payloadBytes);
    /// Sends a keyed broadcast to every other process and logs its messages as sent.
    void SendToAll(const BaselineHeader& header);
    /// Logs the messages of a broadcast as sent now, with `key` as their timestamp: the
    /// broadcast has left the process.
    void LogSent(uint32_t firstSequence, uint64_t key, uint32_t bytes);
    /// Holds a keyed broadcast from the network (or the process's own, as a placeholder), then
    /// delivers what is deliverable.
    void Hold(const BaselineHeader& header);
    /// Delivers held broadcasts in key order while Deliverable() allows.
    void DeliverHeld();

    uint32_t Processes() const { return m_setup.processes; }
    Stats& RunStats() const { return *m_setup.stats; }

  private:
    void DoReceive(const Datagram& datagram) final;

    uint32_t m_processId = 0;
    BaselineSetup m_setup;
    uint32_t m_nextSequence = 0;
    std::priority_queue<Held, std::vector<Held>, std::greater<Held>> m_held;
    std::vector<uint8_t> m_packet;
    std::function<void()> m_onTransmitted;
};

} // namespace incsim::onepipe

#endif
