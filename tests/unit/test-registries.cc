#include "test-support.h"

#include "protocols/builtin-protocols.h"
#include "sim/core/registry.h"
#include "sim/scenario/protocol.h"
#include "sim/topology/topology-registry.h"

#include <catch2/catch.hpp>

using namespace incsim;

TEST_CASE("every built-in protocol registers under its CMake name, and nothing else is there",
          "[registry]")
{
    test::InitIncsim();
    // Also run after the scenario tests in one process (ctest unit.registries_isolated): their
    // fake protocol and generator must be gone.
    CHECK(Protocols().Names() == BuiltinProtocolNames());
    CHECK(TopologyGenerators().Find("test-gen") == nullptr);
}

TEST_CASE("a scoped registration restores what the name held before", "[registry]")
{
    Registry<int> registry;
    registry.Add("kept", 1);
    {
        ScopedRegistration<int> fresh(registry, "fresh", 2);
        ScopedRegistration<int> replacing(registry, "kept", 3);
        CHECK(registry.Get("kept") == 3);
        {
            ScopedRegistration<int> nested(registry, "kept", 4);
            CHECK(registry.Get("kept") == 4);
        }
        CHECK(registry.Get("kept") == 3);
        CHECK(registry.Names() == std::vector<std::string>{"fresh", "kept"});
    }
    CHECK(registry.Names() == std::vector<std::string>{"kept"});
    CHECK(registry.Get("kept") == 1);
}
