#ifndef INCSIM_TOOLS_EXIT_CODES_H
#define INCSIM_TOOLS_EXIT_CODES_H

namespace incsim::cli
{

/// incsim's exit statuses (docs/cli.md). Each means one thing for every command, so scripts
/// can tell a bad input from a failed check from a full disk.
enum ExitCode : int
{
    kExitOk = 0,
    /// The command ran and its verdict is negative: `check` found violations, `p4 test` found
    /// a packet that differs.
    kExitVerdict = 1,
    /// An input file is invalid (scenario, sweep, topology, entries, P4 program, STF script,
    /// results database); the message locates the problem.
    kExitInput = 2,
    /// Valid inputs that cannot be simulated together (e.g. a topology that does not fit the
    /// protocol, or more memory than the machine has).
    kExitConfig = 3,
    /// A sweep or reproduce ran to its end but some runs failed or timed out.
    kExitRunsFailed = 4,
    /// A write failed: a full disk, a file size limit, an unwritable directory.
    kExitOutput = 5,
    /// A P4 program's source changed after incsim was built; rebuild.
    kExitStaleBuild = 6,
    /// Something outside incsim failed: a program it runs (sbatch, python3), Slurm, or the
    /// results database (locked, corrupt).
    kExitExternal = 7,
    /// The command line is wrong (unknown command or option, bad option value).
    kExitUsage = 64,
    /// An unexpected error inside incsim: a bug.
    kExitInternal = 70,
    /// Interrupted (Ctrl-C, SIGTERM) before the end.
    kExitInterrupted = 130,
};

} // namespace incsim::cli

#endif
