// The libFuzzer entry point of one fuzz target (INCSIM_FUZZ_TARGET, e.g. "p4"), built by the
// clang sub-build with -fsanitize=fuzzer,address,undefined. A finding (see fuzz-targets.h)
// aborts with its description, so libFuzzer saves the input as a crash.

#include "tests/fuzz/fuzz-targets.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const incsim::fuzz::Target target = incsim::fuzz::FindTarget(INCSIM_FUZZ_TARGET);
    try
    {
        target(std::string_view(reinterpret_cast<const char*>(data), size));
    }
    catch (const std::exception& exception)
    {
        std::fprintf(stderr, "incsim fuzz finding: %s\n",
                     incsim::fuzz::DescribeException(exception).c_str());
        std::abort();
    }
    return 0;
}
