// The contract header (p4/compiler/contract.h): its text for a program with every kind of
// declaration (golden), renaming, and that what it says is what the compiled program does:
// its control-plane names resolve in the program's control plane with the sizes and widths it
// gives, and its header offsets are where the program's parser reads the fields of a real
// packet. The switch programs' contracts are what the protocols compile against.

#include "p4/compiler/compile.h"
#include "p4/compiler/contract.h"
#include "p4/compiler/diagnostics.h"
#include "p4/runtime/bits.h"
#include "p4/runtime/v1model-switch.h"
#include "gotthard-test-support.h"
#include "p4-test-support.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "test-support.h"

#include "contract_layout-contract.h"
#include "forward-contract.h"
#include "gotthard-contract.h"
#include "lib_headers-contract.h"
#include "onepipe-contract.h"
#include "sequencer-contract.h"
#include <SwitchPrograms.h>
#include <TestPrograms.h>

#include <catch2/catch.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace incsim;

namespace layout = p4gen::contract_layout::contract;

namespace
{

const char* kLayoutSource = "tests/p4/programs/contract-layout.p4";

std::string
LayoutContract()
{
    p4::Diagnostics diags;
    const p4::CompileResult result = p4::CompileProgram(
        p4test::P4TestDir() + "/programs/contract-layout.p4", diags,
        {"contract_layout", kLayoutSource});
    INFO(diags.Render());
    REQUIRE(result.code);
    return result.code->contract;
}

/// The first line of `text` where it differs from `golden`, for the failure message.
std::string
FirstDifference(const std::string& text, const std::string& golden)
{
    size_t line = 1;
    size_t start = 0;
    for (size_t i = 0; i < std::min(text.size(), golden.size()); ++i)
    {
        if (text[i] != golden[i])
        {
            const size_t end = text.find('\n', i);
            return "line " + std::to_string(line) + ": " + text.substr(start, end - start);
        }
        if (text[i] == '\n')
        {
            ++line;
            start = i + 1;
        }
    }
    return text.size() == golden.size() ? "" : "the lengths differ";
}

} // namespace

TEST_CASE("the contract of a program with every kind of declaration is as written",
          "[p4][contract]")
{
    const std::string golden =
        p4test::ReadTextFile(p4test::P4TestDir() + "/contract/contract-layout-contract.h");
    const std::string text = LayoutContract();
    INFO("regenerate with: incsim p4 compile " << kLayoutSource << " --contract");
    INFO(FirstDifference(text, golden));
    CHECK(text == golden);
    CHECK(LayoutContract() == text);
}

TEST_CASE("contract names C++ would not take get trailing underscores", "[p4][contract]")
{
    std::vector<std::string> taken = {"kName"};
    CHECK(p4::CppContractName("ttl", taken) == "ttl");
    CHECK(p4::CppContractName("class", taken) == "class_");
    CHECK(p4::CppContractName("and", taken) == "and_");
    CHECK(p4::CppContractName("linux", taken) == "linux_");
    CHECK(p4::CppContractName("_Reserved", taken) == "_Reserved_");
    CHECK(p4::CppContractName("a__b", taken) == "a__b_");
    CHECK(p4::CppContractName("kName", taken) == "kName_");
    // Taken already (by a renamed "class"): one more underscore.
    CHECK(p4::CppContractName("class_", taken) == "class__");

    // In the generated header: top-level, in a header, in an action.
    CHECK(layout::class_ == 7);
    CHECK(layout::linux_ == 1);
    CHECK(layout::kSource_ == 2);
    CHECK(std::string(layout::kSource) == kLayoutSource);
    CHECK(layout::item_t::Type_::kOffset == 0);
    CHECK(layout::item_t::kName_::kOffset == 8);
    CHECK(std::string(layout::MyIngress::set_port::kName_::kName) == "kName");
}

TEST_CASE("contract constants and enums have the program's values and types", "[p4][contract]")
{
    static_assert(std::is_same_v<decltype(layout::ETHERTYPE_CONTRACT), const unsigned short>);
    static_assert(layout::ETHERTYPE_CONTRACT == 0x88b6);
    static_assert(std::is_same_v<decltype(layout::MINUS_TWO), const signed char>);
    static_assert(layout::MINUS_TWO == -2);
    static_assert(layout::ENABLED);
    static_assert(layout::BIG == (1LL << 40));
    static_assert(layout::TWICE_SLOTS == 8);
    static_assert(layout::WIDE[0] == 0x01 && layout::WIDE[15] == 0x10 &&
                  sizeof(layout::WIDE) == 16);
    static_assert(layout::MyIngress::LOCAL == 3 && layout::MyParser::NO_ITEMS == 0);
    static_assert(std::is_same_v<std::underlying_type_t<layout::Kind>, unsigned char>);
    static_assert(static_cast<int>(layout::Kind::Large) == 0x80);
    static_assert(layout::DEFAULT_KIND == layout::Kind::Large);
    static_assert(std::is_same_v<std::underlying_type_t<layout::Delta>, signed char>);
    static_assert(static_cast<int>(layout::Delta::Down) == -1);
    static_assert(static_cast<int>(layout::Color::Blue) == 2);
    static_assert(std::is_same_v<layout::port_t, unsigned short>);
    // Errors are numbered as parser_error sees them: core.p4's first, then the program's.
    static_assert(layout::error::NoError == 0 && layout::error::BadKind > 0);
    // Structs: field types, nested structs, header stacks.
    static_assert(std::is_same_v<layout::headers_t::items::Type, layout::item_t>);
    static_assert(layout::headers_t::items::kStackSize == layout::SLOTS);
    static_assert(std::is_same_v<layout::metadata_t::inner::Type, layout::inner_t>);
    static_assert(std::is_same_v<layout::inner_t::c::Type, layout::Color>);
    static_assert(std::is_same_v<layout::inner_t::flag::Type, bool>);
    static_assert(std::is_same_v<layout::metadata_t::port::Type, unsigned short>);
    static_assert(layout::metadata_t::port::kWidth == 9);
    static_assert(std::is_same_v<layout::outer_t::kind::Type, layout::Kind>);
    static_assert(layout::outer_t::kBits == 136 && layout::outer_t::kBytes == 17);
    SUCCEED();
}

TEST_CASE("contract control-plane names resolve in the compiled program, with its sizes",
          "[p4][contract]")
{
    const p4rt::GeneratedProgram generated =
        p4rt::FindGeneratedProgram(p4gen::TestPrograms(), layout::kProgram);
    const std::unique_ptr<p4rt::V1Program> program = generated.create();
    p4rt::ControlPlane& control = program->Control();

    using config = layout::MyIngress::config;
    using set_port = layout::MyIngress::set_port;
    CHECK(control.GetTable(config::kName).Name() == config::kName);
    CHECK(config::kSize == layout::TWICE_SLOTS);
    CHECK(std::string(config::kKeys[0]) == "kind");
    CHECK(std::string(config::kKeys[1]) == "hdr.outer.etherType");
    CHECK(std::string(config::kActions[0]) == set_port::kName);
    control.AddEntry(config::kName,
                     {{config::kKeys[0], p4rt::MatchValue::Exact(p4rt::BitString(1))}},
                     set_port::kName,
                     {{set_port::port::kName, p4rt::BitString(3)},
                      {set_port::kName_::kName, p4rt::BitString(4)}});
    static_assert(set_port::port::kWidth == 9 && set_port::kName_::kWidth == 8);
    // A value one bit wider than the contract's width is refused: the widths are the table's.
    CHECK_THROWS(control.SetDefaultAction(config::kName, set_port::kName,
                                          {{set_port::port::kName, p4rt::BitString(1u << 9)},
                                           {set_port::kName_::kName, p4rt::BitString(0)}}));

    const p4rt::RegisterBase& lastA = control.GetRegister(layout::MyIngress::last_a::kName);
    CHECK(lastA.Size() == layout::MyIngress::last_a::kSize);
    CHECK(lastA.Width() == layout::MyIngress::last_a::kWidth);
    const p4rt::CounterArray& hits = control.GetCounter(layout::MyIngress::hits::kName);
    CHECK(hits.Size() == layout::MyIngress::hits::kSize);
    CHECK(std::string(layout::top_level::kName) == "top_level");
}

TEST_CASE("contract header offsets are where the parser reads the fields of a packet",
          "[p4][contract]")
{
    // A packet written with the contract's offsets; ingress computes b = a + 1 and flips bit 0
    // of flags, and copies items[0].Type into items[0].kName: the output, read back with the
    // same offsets, shows whether the parser and deparser put each field where the contract
    // says (a field off by a bit would change a neighbour).
    using outer = layout::outer_t;
    using item = layout::item_t;
    std::vector<uint8_t> packet(outer::kBytes + item::kBytes, 0);
    uint8_t* p = packet.data();
    p4rt::InsertBits(p, outer::etherType::kOffset, outer::etherType::kWidth,
                     layout::ETHERTYPE_CONTRACT);
    p4rt::InsertBits(p, outer::pri::kOffset, outer::pri::kWidth, 5);
    p4rt::InsertBits(p, outer::flags::kOffset, outer::flags::kWidth, 0x12);
    p4rt::InsertBits(p, outer::kind::kOffset, outer::kind::kWidth,
                     static_cast<uint64_t>(layout::Kind::Large));
    p4rt::InsertBits(p, outer::a::kOffset, outer::a::kWidth, 0xabc);
    p4rt::InsertBits(p, outer::b::kOffset, outer::b::kWidth, 0x777);
    p4rt::InsertBits(p, outer::wide::kOffset, 64, 0x0102030405060708);
    p4rt::InsertBits(p, outer::wide::kOffset + 64, outer::wide::kWidth - 64, 0x09);
    p4rt::InsertBits(p, outer::count::kOffset, outer::count::kWidth, 1);
    uint8_t* items = p + outer::kBytes;
    p4rt::InsertBits(items, item::Type_::kOffset, item::Type_::kWidth, 0x5a);
    p4rt::InsertBits(items, item::kName_::kOffset, item::kName_::kWidth, 0x33);

    p4rt::V1SwitchTarget target(
        p4rt::FindGeneratedProgram(p4gen::TestPrograms(), layout::kProgram).create());
    target.InjectPacket(0, packet);
    const std::vector<p4rt::StfOutputPacket> out = target.Drain();
    REQUIRE(out.size() == 1);
    CHECK(out[0].port == 1);
    REQUIRE(out[0].data.size() == packet.size());
    const uint8_t* o = out[0].data.data();
    CHECK(p4rt::ExtractBits(o, outer::etherType::kOffset, outer::etherType::kWidth) == 0x88b6);
    CHECK(p4rt::ExtractBits(o, outer::pri::kOffset, outer::pri::kWidth) == 5);
    CHECK(p4rt::ExtractBits(o, outer::flags::kOffset, outer::flags::kWidth) == 0x13);
    CHECK(p4rt::ExtractBits(o, outer::kind::kOffset, outer::kind::kWidth) == 0x80);
    CHECK(p4rt::ExtractBits(o, outer::a::kOffset, outer::a::kWidth) == 0xabc);
    CHECK(p4rt::ExtractBits(o, outer::b::kOffset, outer::b::kWidth) == 0xabd);
    CHECK(p4rt::ExtractBits(o, outer::wide::kOffset, 64) == 0x0102030405060708);
    CHECK(p4rt::ExtractBits(o, outer::count::kOffset, outer::count::kWidth) == 1);
    CHECK(p4rt::ExtractBits(o + outer::kBytes, item::kName_::kOffset, item::kName_::kWidth) ==
          0x5a);
    // The register saw the parser's a.
    CHECK(target.Control().ReadRegister(layout::MyIngress::last_a::kName, 0) ==
          p4rt::BitString(0xabc));
}

TEST_CASE("the switch programs' contracts match their compiled programs", "[p4][contract]")
{
    // The protocols build against these; here, that each name they use resolves and each
    // header is as long as the program's parser takes it.
    const auto control = [](const char* name) {
        return p4rt::FindGeneratedProgram(p4gen::SwitchPrograms(), name).create();
    };
    namespace gotthard = p4gen::gotthard::contract;
    const auto g = control(gotthard::kProgram);
    CHECK(g->Control().GetCounter(gotthard::MyIngress::gotthard_events::kName).Size() ==
          gotthard::MyIngress::gotthard_events::kSize);
    CHECK(gotthard::MyIngress::gotthard_events::kSize == gotthard::EVENT_PENDING_DROPPED + 1);
    CHECK(g->Control().GetRegister(gotthard::MyIngress::cache_key::kName).Size() ==
          gotthard::GOTTHARD_CACHE_MAX);
    g->Control().SetDefaultAction(
        gotthard::MyIngress::gotthard_config::kName, gotthard::MyIngress::configure::kName,
        {{gotthard::MyIngress::configure::mode::kName, p4rt::BitString(gotthard::MODE_GOTTHARD)},
         {gotthard::MyIngress::configure::cache_slots::kName, p4rt::BitString(1)}});
    static_assert(gotthard::gotthard_t::kBytes == 13 && gotthard::gotthard_op_t::kBytes == 13);

    namespace onepipe = p4gen::onepipe::contract;
    const auto o = control(onepipe::kProgram);
    CHECK(o->Control().GetRegister(onepipe::MyIngress::live_ports::kName).Width() ==
          onepipe::MyIngress::live_ports::kWidth);
    CHECK(o->Control().GetCounter(onepipe::MyEgress::beacons_sent::kName).Size() ==
          onepipe::MyEgress::beacons_sent::kSize);
    CHECK(o->Control().GetTable(onepipe::MyIngress::onepipe_config::kName).Name() ==
          onepipe::MyIngress::onepipe_config::kName);
    static_assert(onepipe::onepipe_t::kBytes == 24);

    namespace sequencer = p4gen::sequencer::contract;
    const auto s = control(sequencer::kProgram);
    CHECK(s->Control().GetTable(sequencer::MyEgress::receivers::kName).Name() ==
          sequencer::MyEgress::receivers::kName);
    CHECK(s->Control().GetTable(sequencer::MyIngress::sequencer_config::kName).Name() ==
          sequencer::MyIngress::sequencer_config::kName);

    // The drop reasons the simulator reads from lib/headers.p4's contract are every program's.
    namespace lib = p4gen::lib_headers::contract;
    static_assert(lib::DROP_NO_ROUTE == p4gen::forward::contract::DROP_NO_ROUTE &&
                  lib::DROP_TTL_EXPIRED == gotthard::DROP_TTL_EXPIRED &&
                  lib::DROP_CONSUMED == onepipe::DROP_CONSUMED);
    static_assert(lib::ethernet_t::kBytes == 14 && lib::ipv4_t::kBytes == 20 &&
                  lib::udp_t::kBytes == 8);
}

TEST_CASE("a library of declarations gets a contract without program parts", "[p4][contract]")
{
    p4::Diagnostics diags;
    const p4::CompileResult result = p4::CompileLibrary(
        p4test::P4TestDir() + "/../../p4/lib/headers.p4", diags,
        {"lib_headers", "p4/lib/headers.p4"});
    INFO(diags.Render());
    REQUIRE(result.libraryContract);
    const std::string& text = *result.libraryContract;
    CHECK(text.find("inline constexpr unsigned char DROP_CONSUMED = 0x3u;") != std::string::npos);
    CHECK(text.find("struct ipv4_t") != std::string::npos);
    CHECK(text.find("kProgram") == std::string::npos);
    // Alone, headers.p4 is no program (it has no main).
    p4::Diagnostics programDiags;
    CHECK_FALSE(p4::CompileProgram(p4test::P4TestDir() + "/../../p4/lib/headers.p4",
                                   programDiags)
                    .code);
}

TEST_CASE("every Gotthard mode configures its switches with the program's MODE_ constant",
          "[p4][contract][gotthard]")
{
    test::InitIncsim();
    namespace gotthard = p4gen::gotthard::contract;
    const std::pair<const char*, uint64_t> modes[] = {
        {"gotthard", gotthard::MODE_GOTTHARD},
        {"read-cache", gotthard::MODE_READ_CACHE},
        {"forward", gotthard::MODE_FORWARD},
        {"broken-ok-writes", gotthard::MODE_BROKEN_OK_WRITES},
    };
    for (const auto& [mode, number] : modes)
    {
        INFO(mode);
        test::TestWorld world(test::GotthardScenario(mode, R"("kind": "counter")"), {}, true);
        auto* pipeline = dynamic_cast<P4Pipeline*>(world.Switch("G").GetPipeline());
        REQUIRE(pipeline != nullptr);
        using config = gotthard::MyIngress::gotthard_config;
        const p4rt::TableEntry& entry = pipeline->Control().GetTable(config::kName).DefaultEntry();
        CHECK(entry.args[0] == number);  // configure's first parameter, mode
    }
}
