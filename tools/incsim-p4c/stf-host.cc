// The main() of a one-program STF runner for the conformance suite (tests/p4/conformance/):
// the suite compiles a corpus program with `incsim-p4c --name conformance`, links its C++
// with this file's library and the runtime, and runs the program's STF script here, as
// `incsim p4 test` does for the programs compiled into incsim.
//
//   stf-host SCRIPT.stf   exit 0 passed, 1 failed (report on stderr), 2 bad script

#include "p4/runtime/error.h"
#include "p4/runtime/stf.h"
#include "p4/runtime/v1model-switch.h"

#include <exception>
#include <iostream>

namespace incsim::p4gen::conformance
{
const p4rt::GeneratedProgram& Program();
} // namespace incsim::p4gen::conformance

int
main(int argc, char** argv)
{
    if (argc != 2)
    {
        std::cerr << "usage: " << argv[0] << " SCRIPT.stf\n";
        return 64;
    }
    const std::string path = argv[1];
    try
    {
        const incsim::p4rt::StfScript script = incsim::p4rt::ParseStfFile(path);
        incsim::p4rt::V1SwitchTarget target(incsim::p4gen::conformance::Program().create());
        const incsim::p4rt::StfResult result = incsim::p4rt::RunStf(script, target);
        if (!result.Passed())
        {
            std::cerr << result.Report(path);
            return 1;
        }
        return 0;
    }
    catch (const incsim::p4rt::Error& error)
    {
        std::cerr << error.what() << "\n";
        return 2;
    }
    catch (const std::exception& error)
    {
        std::cerr << path << ": internal error: " << error.what() << "\n";
        return 70;
    }
}
