#ifndef INCSIM_TESTS_FUZZ_FUZZ_TARGETS_H
#define INCSIM_TESTS_FUZZ_FUZZ_TARGETS_H

// The fuzz targets: one entry point per input format, shared by the libFuzzer binaries (the
// clang sub-build, tests/fuzz/clang/) and the replay tool of the normal build, so a crasher
// found by fuzzing replays through exactly the same code with g++.
//
// An entry point feeds one input through the same calls the simulator makes on a file of that
// format, and returns whether the input was accepted or rejected with a clear error. The
// project's own errors are clear errors: incsim::InputError and ConfigError, p4rt::Error and
// P4 diagnostics. Anything else escaping (std::out_of_range, a raw nlohmann::json exception,
// std::bad_alloc, ...) is a finding and propagates, as does UnlocatedError for a clear error
// whose message does not say where in the input the problem is.

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace incsim::fuzz
{

struct Outcome
{
    bool accepted = false;
    /// Why not, when rejected: the error as the command line would print it.
    std::string error;
};

/// A project error whose message does not start with the input's name (and, for P4, a line and
/// column): a finding, since bad input must be reported at its place.
class UnlocatedError : public std::logic_error
{
  public:
    using std::logic_error::logic_error;
};

using Target = Outcome (*)(std::string_view input);

/// The targets by name:
///   scenario  a scenario file, as `incsim validate` checks it: JSON, schema, topology
///             (generator; a topology file path does not resolve), routes, the DAG check, then
///             the ns-3 world with its protocol, faults and traces (into a scratch directory)
///   topology  a topology file: JSON, schema, graph, routes
///   p4        a P4 program: lexer, parser, checker, C++ back end, with the tokens of incsim's
///             core.p4 and v1model.p4 (preprocessed and lexed once) in front of its own; its
///             #include lines are blanked, other directives reach the lexer, which reports them
///   stf       an STF script, run against a fresh instance of a compiled-in program
///   entries   a table-entries file, loaded into a fresh instance of a compiled-in program
///             (for both: the program named by a first line "# program: NAME", else forward)
/// Registers the topology generators and protocols on first use.
const std::map<std::string, Target>& Targets();

/// The target called `name`; throws std::invalid_argument naming the known ones.
Target FindTarget(const std::string& name);

/// "std::out_of_range: what()" for an exception that escaped a target.
std::string DescribeException(const std::exception& exception);

} // namespace incsim::fuzz

#endif
