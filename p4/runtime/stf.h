#ifndef INCSIM_P4RT_STF_H
#define INCSIM_P4RT_STF_H

// STF, the "simple test framework" of p4c's BMv2 tests: a script of control-plane commands,
// packets to inject and packets to expect. incsim runs it against a generated pipeline with
// no ns-3 around it (as p4c's eBPF "test" target does).
//
// Syntax (docs/stf.md; one command per line; '#' starts a comment; keywords are case-insensitive):
//
//   add <table> [<priority>] <field>:<value> ... <action>(<param>:<value>, ...) [= <handle>]
//   setdefault <table> <action>(<param>:<value>, ...)
//   packet <port> <hex bytes, spaces anywhere>
//   expect <port> [<hex with * nibble wildcards>[$]]
//   wait
//   mc_mgrp_create <group>
//   mc_node_create <rid> <port> ...                  (node handles are 0, 1, ... in order)
//   mc_node_associate <group> <node handle>
//   mirroring_add <session> <port>
//   register_write <register> <index> <value>
//   register_reset <register>
//   check_register <register> <index> <value>         (incsim extension)
//   check_counter <counter>(<index>) [packets|bytes] [<op> <value>]   (op: == != < <= > >=)
//
// Names are full or unambiguous dot-suffixes (see control-plane.h); in key names "$N" means
// "[N]" (a header-stack index), as in p4c. Values: decimal, 0x hex, 0b binary. Key values
// also take "value/len" (lpm), "value&&&mask" (ternary), and '*' digits in hex or binary
// ("0x****0101"), which p4c turns into a ternary mask with one F per written digit and 0 per
// '*' (lpm: a prefix over the written digits). An `add` priority is only used by tables with
// ternary/optional fields, and the higher number wins (p4c's runner converts it the same way
// for BMv2's CLI, whose own convention is the inverse).
//
// Packets run to completion when injected (InjectPacket, then Drain); `wait` only drains
// again, for targets that emit late. Control commands apply at their place in the script.
//
// Expectations (as p4c's bmv2stf.py checks them): the packets each port emits are compared, in
// order, with that port's `expect` lines, wherever those lines sit in the script. Counts must
// match exactly; a received packet may be longer than its expectation unless the expectation
// ends in '$'; '*' matches any nibble. `expect <port>` with no data accepts any number of
// packets on that port. A port with packets but no expectations fails.

#include "p4/runtime/bit-string.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace incsim::p4rt
{

class ControlPlane;

/// A number as written in STF, with its '*' digits (if any) remembered.
struct StfNumber
{
    std::string text;
    BitString value;  // '*' digits read as 0
    bool hasStars = false;
    BitString careMask;  // one bits under each written (non-'*') digit; set only if hasStars
    unsigned digitBits = 0;  // bits covered by the written digits (0 for decimal)
    unsigned starBits = 0;  // bits under '*' digits
    unsigned trailingStarBits = 0;  // of which at the end
};

/// A key field match as written: number, number/len or number&&&mask.
struct StfKeyMatch
{
    std::string field;
    StfNumber value;
    std::optional<unsigned> prefixLen;
    std::optional<StfNumber> mask;
};

struct StfCommand
{
    enum class Kind : uint8_t
    {
        Add,
        SetDefault,
        Packet,
        Expect,
        Wait,
        McGroupCreate,
        McNodeCreate,
        McNodeAssociate,
        MirroringAdd,
        RegisterWrite,
        RegisterReset,
        CheckRegister,
        CheckCounter,
    };

    Kind kind = Kind::Wait;
    int line = 0;

    // add / setdefault
    std::string table;
    std::optional<int32_t> priority;
    std::vector<StfKeyMatch> keys;
    std::string action;
    std::vector<std::pair<std::string, StfNumber>> args;

    // packet / expect
    uint32_t port = 0;
    std::vector<uint8_t> data;  // packet bytes
    std::string pattern;  // expect: uppercase hex nibbles and '*'; empty = any packets
    bool exactLength = false;  // expect ... $

    // multicast / mirroring / registers / counters
    std::vector<uint64_t> numbers;  // group; rid and ports; group and node; session and port;
                                    // index (and value for check_register)
    std::string object;  // register or counter name
    BitString value;  // register_write, check_register, check_counter
    std::string counterField;  // check_counter: "packets" or "bytes"
    std::string op;  // check_counter comparison
};

struct StfScript
{
    std::string fileName;
    std::vector<StfCommand> commands;
};

/// Parses STF text; throws Error listing every problem as "FILE:LINE: message".
StfScript ParseStf(const std::string& text, const std::string& fileName);
StfScript ParseStfFile(const std::string& path);

/// A packet the target emitted.
struct StfOutputPacket
{
    uint32_t port = 0;
    std::vector<uint8_t> data;
};

/// What the STF runner needs from a pipeline under test. A generated pipeline is wrapped in
/// one by whoever builds it (the runner does not know the Pipeline interface).
class StfTarget
{
  public:
    virtual ~StfTarget() = default;

    /// The program's control plane: tables, registers, counters, multicast groups and clone
    /// sessions. STF control commands go through it.
    virtual ControlPlane& Control() = 0;

    /// Runs one packet arriving on `port` through the whole switch (ingress, traffic manager
    /// with multicast and cloning, egress) to completion. Outputs are buffered for Drain.
    virtual void InjectPacket(uint32_t port, const std::vector<uint8_t>& data) = 0;

    /// Every packet emitted since the last call, in emission order.
    virtual std::vector<StfOutputPacket> Drain() = 0;
};

struct StfFailure
{
    int line = 0;  // script line the failure is about (0: the script as a whole)
    std::string message;
};

struct StfResult
{
    std::vector<StfFailure> failures;

    bool Passed() const { return failures.empty(); }
    /// "FILE:LINE: message" lines, one per failure.
    std::string Report(const std::string& fileName) const;
};

/// Runs the script against the target. Control-plane errors, failed checks and packet
/// mismatches are all collected (the run goes on after each); nothing is thrown for them.
StfResult RunStf(const StfScript& script, StfTarget& target);

} // namespace incsim::p4rt

#endif
