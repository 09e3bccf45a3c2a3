#ifndef INCSIM_SWITCHTX_COORDINATION_TREE_H
#define INCSIM_SWITCHTX_COORDINATION_TREE_H

// Coordination trees (§3.3) and the slices a transaction's hosts put on their control messages
// (docs/switchtx.md, "Control plane and coordination trees").
//
// Contract for the hosts:
//  - Describe a transaction as a GasTransaction: the client, its phases in order (each: the
//    hosts that send the phase's message, once per message, and the hosts the switch scatters
//    the phase's last message to; no receivers = the phase's last message goes to the client,
//    commit_ok), and the fail receivers (W_P ∪ W_B, spec [D] 6; the client is added). Hosts
//    are host indices of servers of the GasNetwork.
//  - GasPlanner::Next(txn) picks the transaction's tree (round robin over the candidate trees
//    of its hosts, per client, §3.3) and returns its GasPlan:
//      Init()             the client's init, sent to any address (the client's own will do):
//                         it goes up to the root untouched and the root, then every other
//                         tree switch on the way down, install the transaction.
//      Phase(p, sender)   what `sender` puts on its message of phase p (the same for each of
//                         its messages in that phase).
//      Fail(sender)       what a participant puts on a fail: threshold 1 on its path, scatter
//                         to the fail receivers and the client; the switches drop the copy
//                         addressed to the sender.
//    The client ships each participant its Phase and Fail slices in the lock phase ([D] 7).
//  - Participants address control messages to the client; a message's `count` is 1.
//  - A txn_id names one attempt: a retry takes a new one and a new init.
//  - The client starts the lock phase after the init had time to reach every tree switch
//    (about one trip up to the root and down to the farthest leaf).
// Plan throws ConfigError when the transaction does not fit the header (more than
// GasSlices::kPathSlices switches between a host and the root, or more than kDownSlices
// other switches for one message), naming the transaction's hosts, the root and the limit.

#include "protocols/switchtx/control-plane/gas-network.h"
#include "protocols/switchtx/gas-slice.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace incsim::switchtx
{

struct GasPhase
{
    std::vector<uint32_t> senders;   ///< one entry per message the phase gathers
    std::vector<uint32_t> receivers; ///< empty: the last message goes to the client
};

struct GasTransaction
{
    uint32_t client = 0;
    std::vector<GasPhase> phases;
    std::vector<uint32_t> failReceivers;

    /// Every host of the transaction, sorted, once each.
    std::vector<uint32_t> Hosts() const;
};

/// A tree of switches over a transaction's hosts, along down ports from its root.
class CoordinationTree
{
  public:
    /// The tree rooted at switch `root` over `hosts` (all below it). Throws ConfigError if the
    /// down paths do not form a tree.
    CoordinationTree(const GasNetwork& network, uint32_t root, const std::vector<uint32_t>& hosts);

    uint32_t Root() const { return m_root; }
    /// Tree switches (node ids), root first, parents before children.
    const std::vector<uint32_t>& Switches() const { return m_switches; }
    /// The switches from host `host`'s switch up to the root, leaf first.
    std::vector<uint32_t> PathOf(uint32_t host) const;
    /// Parent switch's node, and the port of `node` toward it; kNoParent at the root.
    uint32_t Parent(uint32_t node) const { return m_parent.at(node).first; }
    uint16_t ParentPort(uint32_t node) const { return m_parent.at(node).second; }
    /// Switch the host hangs from, and that switch's port to it.
    std::pair<uint32_t, uint32_t> Attachment(uint32_t host) const { return m_attachment.at(host); }

  private:
    uint32_t m_root;
    std::vector<uint32_t> m_switches;
    std::map<uint32_t, std::pair<uint32_t, uint16_t>> m_parent; // node -> (parent, port)
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> m_attachment; // host -> (switch, port)
};

/// The slices of one transaction on one tree.
class GasPlan
{
  public:
    GasPlan(const GasNetwork& network, const GasTransaction& txn, CoordinationTree tree);

    const CoordinationTree& Tree() const { return m_tree; }
    const GasSlices& Init() const { return m_init; }
    /// Throws std::out_of_range if `sender` sends nothing in phase `phase`.
    const GasSlices& Phase(size_t phase, uint32_t sender) const;
    /// Throws std::out_of_range if `sender` is not a host of the transaction.
    const GasSlices& Fail(uint32_t sender) const;

  private:
    /// Per tree switch: this phase's weight below it and the scatter group of `receivers`.
    struct Fields
    {
        std::map<uint32_t, uint16_t> threshold;
        std::map<uint32_t, uint16_t> group;
    };

    GasSlices Build(uint32_t sender, const Fields& fields, bool allSwitches) const;
    Fields Groups(const std::vector<uint32_t>& receivers) const;

    const GasNetwork& m_network;
    CoordinationTree m_tree;
    std::vector<uint32_t> m_hosts;
    GasSlices m_init;
    std::vector<std::map<uint32_t, GasSlices>> m_phases;
    std::map<uint32_t, GasSlices> m_fails;
};

class GasPlanner
{
  public:
    explicit GasPlanner(const GasNetwork& network);

    /// The candidate roots for `hosts` (node ids, in node order): in scope Tree the lowest
    /// switches with every host below them (the LCA level), in scope Root the top-level ones.
    /// Throws ConfigError if there is none.
    std::vector<uint32_t> Roots(const std::vector<uint32_t>& hosts) const;
    /// The plan on the tree rooted at `root`.
    GasPlan Plan(const GasTransaction& txn, uint32_t root) const;
    /// The plan on the client's next candidate tree, round robin.
    GasPlan Next(const GasTransaction& txn);

  private:
    const GasNetwork& m_network;
    std::map<uint32_t, uint64_t> m_nextTree; // per client
};

} // namespace incsim::switchtx

#endif
