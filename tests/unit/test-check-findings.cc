// CheckFindings, what every protocol checker reports through: each declared property is
// reported once, held or violated.

#include "sim/scenario/protocol.h"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using namespace incsim;

TEST_CASE("CheckFindings reports each declared property once", "[checker]")
{
    CheckFindings findings({"a", "b", "c"});
    findings.Add("b", "broken");
    findings.Checked("a", "fine");
    findings.Checked("b", "would be fine");
    findings.Checked("c", "fine too");
    const CheckReport report = findings.Report();
    CHECK(report.passed == std::vector<std::string>{"a: fine", "c: fine too"});
    CHECK(report.violations == std::vector<std::string>{"b: broken"});
    // A property named differently where it is checked than where it is reported can no
    // longer read "ok" beside its own failures: it is a programming error.
    CHECK_THROWS_AS(findings.Add("bb", "typo"), std::logic_error);
    CHECK_THROWS_AS(findings.Checked("bb", "typo"), std::logic_error);
    CheckFindings unsummarized({"a"});
    CHECK_THROWS_AS(unsummarized.Report(), std::logic_error);
}
