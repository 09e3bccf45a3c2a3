#ifndef INCSIM_ONEPIPE_BASELINES_BASELINES_H
#define INCSIM_ONEPIPE_BASELINES_BASELINES_H

#include "protocols/onepipe/baselines/ordered-broadcast.h"
#include "protocols/onepipe/baselines/sequencer.h"
#include "protocols/onepipe/scatter-workload.h"

#include <ns3/ptr.h>

#include <memory>
#include <string>
#include <vector>

namespace incsim
{
class ParamView;
class World;
} // namespace incsim

namespace incsim::onepipe
{

/// The total-order broadcast baselines of 1Pipe's Fig. 8, by `ordering` name.
enum class Baseline
{
    SequencerSwitch, ///< p4/sequencer.p4 on the highest-tier switch
    SequencerHost,   ///< a HostSequencer on the last host's NIC
    Token,
    Lamport
};

/// Installs one baseline on a world: the switch program where it needs one, and a process per
/// (host, index) for the first `processHosts` hosts, each driven by a ScatterApp.
class BaselineInstaller
{
  public:
    /// `params`: the onepipe protocol's parameters (sequencer_cost, exchange_interval).
    void Install(World& world, Baseline baseline, const ParamView& params,
                 const ScatterWorkload& traffic, uint32_t processHosts,
                 const BaselineSetup& setup);
    size_t NumProcesses() const { return m_processes.size(); }

  private:
    void ConfigureSequencerSwitch(World& world, const BaselineSetup& setup,
                                  const std::string& program, const std::string& where);

    std::vector<ns3::Ptr<OrderedBroadcast>> m_processes;
    ns3::Ptr<HostSequencer> m_sequencer;
    std::vector<std::unique_ptr<ScatterApp>> m_apps;
};

} // namespace incsim::onepipe

#endif
