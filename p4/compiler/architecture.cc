#include "p4/compiler/architecture.h"

#include "p4/compiler/diagnostics.h"

#include <algorithm>

namespace incsim::p4
{

using namespace ast;

const ArchitectureExtern*
Architecture::FindExtern(const std::string& externName) const
{
    for (const ArchitectureExtern& candidate : externs)
    {
        if (candidate.name == externName)
        {
            return &candidate;
        }
    }
    return nullptr;
}

const ArchitectureType*
Architecture::FindType(const std::string& typeName) const
{
    for (const ArchitectureType& candidate : types)
    {
        if (candidate.name == typeName)
        {
            return &candidate;
        }
    }
    return nullptr;
}

const Architecture&
V1ModelArchitecture()
{
    static const Architecture v1model = [] {
        Architecture a;
        a.name = "v1model";
        a.package = "V1Switch";
        a.blocks = {{"parser", BlockKind::Parser},
                    {"verify_checksum", BlockKind::Control},
                    {"ingress", BlockKind::Control},
                    {"egress", BlockKind::Control},
                    {"compute_checksum", BlockKind::Control},
                    {"deparser", BlockKind::Deparser}};
        a.types = {{"packet_in", ArchSlot::Packet},
                   {"packet_out", ArchSlot::Packet},
                   {"H", ArchSlot::Headers},
                   {"M", ArchSlot::Metadata},
                   {"standard_metadata_t", ArchSlot::Intrinsic}};
        a.intrinsicType = "standard_metadata_t";
        // Which fields the target sets before ingress or egress runs (load) and reads after
        // (store); p4rt::V1Metadata.
        a.intrinsicFields = {
            {"ingress_port", "ingressPort", true, false, false, false},
            {"egress_spec", "egressSpec", false, false, true, true},
            {"egress_port", "egressPort", false, true, false, false},
            {"instance_type", "instanceType", true, true, false, false},
            {"packet_length", "packetLength", true, true, false, false},
            {"egress_rid", "egressRid", false, true, false, false},
            {"mcast_grp", "mcastGrp", false, false, true, false},
            {"priority", "priority", false, false, true, false},
            {"ingress_global_timestamp", "ingressGlobalTimestamp", true, true, false, false},
            {"egress_global_timestamp", "egressGlobalTimestamp", false, true, false, false},
            {"enq_timestamp", "enqTimestamp", false, true, false, false},
            {"enq_qdepth", "enqQdepth", false, true, false, false},
            {"deq_timedelta", "deqTimedelta", false, true, false, false},
            {"deq_qdepth", "deqQdepth", false, true, false, false},
        };
        a.parserErrorField = "parser_error";
        a.checksumErrorField = "checksum_error";
        a.egressSpecField = "egress_spec";
        a.multicastGroupField = "mcast_grp";
        using R = ExternRuntime;
        a.externs = {
            {"register", R::Register, "", 1},
            {"counter", R::Counter, "", 0},
            {"verify", R::Verify},  // core.p4's, which every architecture shares
            {"mark_to_drop", R::MarkToDrop},
            {"hash", R::Hash},
            {"update_checksum", R::UpdateChecksum},
            {"verify_checksum", R::VerifyChecksum},
            {"clone", R::Clone},
            {"clone_preserving_field_list", R::ClonePreservingFieldList},
            {"resubmit_preserving_field_list", R::ResubmitPreservingFieldList},
            {"recirculate_preserving_field_list", R::RecirculatePreservingFieldList},
            {"truncate", R::Truncate},
            {"log_msg", R::LogMsg},
            {"random", R::Unsupported, "it would make runs non-deterministic"},
            {"digest", R::Unsupported, "incsim has no digest receiver"},
            {"assert", R::Unsupported, "BMv2 aborts the switch on failure"},
            {"assume", R::Unsupported, "BMv2 aborts the switch on failure"},
            {"resubmit", R::Unsupported, "use resubmit_preserving_field_list"},
            {"recirculate", R::Unsupported, "use recirculate_preserving_field_list"},
            {"clone3", R::Unsupported, "use clone_preserving_field_list"},
            {"verify_checksum_with_payload", R::Unsupported, "the payload is not materialised"},
            {"update_checksum_with_payload", R::Unsupported, "the payload is not materialised"},
            {"meter", R::Unsupported},
            {"direct_meter", R::Unsupported},
            {"direct_counter", R::Unsupported},
            {"action_profile", R::Unsupported},
            {"action_selector", R::Unsupported},
            {"Checksum16", R::Unsupported, "use update_checksum"},
            {"static_assert", R::Unsupported},
        };
        a.hashAlgorithms = {{"crc16", "Crc16"},
                            {"crc32", "Crc32"},
                            {"crc16_custom", "Crc16Custom"},
                            {"crc32_custom", "Crc32Custom"},
                            {"identity", "Identity"},
                            {"csum16", "Csum16"},
                            {"xor16", "Xor16"}};
        a.exampleMain = "V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), "
                        "MyComputeChecksum(), MyDeparser()) main;";
        return a;
    }();
    return v1model;
}

const std::vector<const Architecture*>&
Architectures()
{
    static const std::vector<const Architecture*> all = {&V1ModelArchitecture()};
    return all;
}

const Declaration*
ArchitectureBinding::Block(const std::string& role) const
{
    for (size_t i = 0; i < blocks.size(); ++i)
    {
        if (architecture->blocks[i].role == role)
        {
            return blocks[i];
        }
    }
    return nullptr;
}

namespace
{

/// "six" for 6: the count in an error message.
std::string
CountWord(size_t count)
{
    static const char* const kWords[] = {"no",  "one",   "two",   "three", "four", "five",
                                         "six", "seven", "eight", "nine",  "ten"};
    return count < std::size(kWords) ? kWords[count] : std::to_string(count);
}

void
Unsupported(Diagnostics& diags, const SourceLocation& location, const std::string& what,
            const std::string& why)
{
    diags.Error(location,
                what + " is outside incsim's P4 subset" + (why.empty() ? "" : ": " + why));
}

/// The parameters of a parser or control declaration, or of its type; null for anything else.
const PtrList<Parameter>*
BlockParams(const Declaration* decl)
{
    if (const auto* parser = decl ? decl->As<ParserDecl>() : nullptr)
    {
        return &parser->params;
    }
    if (const auto* control = decl ? decl->As<ControlDecl>() : nullptr)
    {
        return &control->params;
    }
    if (const auto* parserType = decl ? decl->As<ParserTypeDecl>() : nullptr)
    {
        return &parserType->params;
    }
    if (const auto* controlType = decl ? decl->As<ControlTypeDecl>() : nullptr)
    {
        return &controlType->params;
    }
    return nullptr;
}

/// A block parameter takes the slot of the architecture parameter in its place: a type
/// parameter by its name (H, M), any other type by the name of its declaration.
void
BindSlot(const Architecture& architecture, const Parameter& user, const Parameter& arch,
         ArchitectureBinding& binding)
{
    const Declaration* archDecl = NamedDecl(arch.type.get());
    const ArchitectureType* type = archDecl ? architecture.FindType(archDecl->name) : nullptr;
    if (!type)
    {
        return;
    }
    binding.params[&user] = type->slot;
    if (type->slot == ArchSlot::Packet)
    {
        return;
    }
    const Type* userType = Canon(user.type.get());
    const Declaration* decl = NamedDecl(userType);
    binding.types[type->slot] = decl ? decl->As<StructLikeDecl>() : nullptr;
}

} // namespace

std::optional<ArchitectureBinding>
BindArchitecture(const Program& program, const std::vector<const Architecture*>& architectures,
                 const SourceLocation& whole, Diagnostics& diags)
{
    const Architecture* fallback = architectures.empty() ? nullptr : architectures.front();
    const InstanceDecl* main = nullptr;
    for (const auto& decl : program.declarations)
    {
        if (decl->Is<InstanceDecl>() && decl->name == "main")
        {
            main = decl->As<InstanceDecl>();
        }
    }
    if (!main)
    {
        diags.Error(whole, "the program has no 'main' (" +
                               (fallback ? fallback->package : std::string("Package")) +
                               "(...) main;)");
        return std::nullopt;
    }
    const Declaration* package = NamedDecl(main->type.get());
    const Architecture* architecture = nullptr;
    for (const Architecture* candidate : architectures)
    {
        if (package && package->Is<PackageTypeDecl>() && package->name == candidate->package)
        {
            architecture = candidate;
        }
    }
    if (!architecture)
    {
        Unsupported(diags, main->location, "package '" + ToString(*main->type) + "'",
                    fallback ? "incsim targets " + fallback->name + "'s " + fallback->package
                             : "");
        return std::nullopt;
    }
    const std::string& packageName = architecture->package;
    const auto& params = package->As<PackageTypeDecl>()->params;
    const size_t count = architecture->blocks.size();
    if (main->args.size() != params.size() || params.size() != count)
    {
        diags.Error(main->location, packageName + " takes " + CountWord(count) + " blocks");
        return std::nullopt;
    }
    ArchitectureBinding binding;
    binding.architecture = architecture;
    binding.main = main;
    for (size_t i = 0; i < count; ++i)
    {
        // By name (V1Switch(p = MyParser(), ...)) or by position.
        const Expression* value = ArgumentFor(main->args, params, i);
        const auto* call = value ? value->As<CallExpr>() : nullptr;
        const auto* name = call ? call->callee->As<NameExpr>() : nullptr;
        if (!name || !name->resolved || !call->args.empty())
        {
            Unsupported(diags, value ? value->location : main->location,
                        "this " + packageName + " argument",
                        "pass a parser or control instantiated without arguments");
            return std::nullopt;
        }
        const PtrList<Parameter>* archParams = BlockParams(NamedDecl(params[i]->type.get()));
        const PtrList<Parameter>* userParams = BlockParams(name->resolved);
        if (!archParams || !userParams || archParams->size() != userParams->size() ||
            name->resolved->Is<ParserTypeDecl>() || name->resolved->Is<ControlTypeDecl>())
        {
            diags.Error(value->location,
                        "internal: " + packageName + " block does not match its type");
            return std::nullopt;
        }
        for (size_t p = 0; p < userParams->size(); ++p)
        {
            BindSlot(*architecture, *(*userParams)[p], *(*archParams)[p], binding);
        }
        binding.blocks.push_back(name->resolved);
    }
    for (size_t i = 0; i < count; ++i)
    {
        const bool isParser = architecture->blocks[i].kind == BlockKind::Parser;
        if (binding.blocks[i]->Is<ParserDecl>() != isParser)
        {
            diags.Error(main->location,
                        "internal: " + packageName + " blocks of the wrong kind");
            return std::nullopt;
        }
    }
    return binding;
}

} // namespace incsim::p4
