// Extern functions (hash, checksums, clone, ...) and the packing of their field lists.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::ExternFunction(const CallExpr& call, const FunctionDecl& function, CodeWriter& out)
{
    const std::string& name = function.name;
    const ArchitectureExtern* known = Arch().FindExtern(name);
    using R = ExternRuntime;
    const R runtime = known ? known->runtime : R::Unsupported;
    const auto arg = [&](size_t i) -> const Expression& { return *call.args[i]->value; };
    const bool inControl = m_context == Context::Control || m_context == Context::Action;
    if (runtime == R::Verify && m_context == Context::Parser)
    {
        const std::string condition = Value(arg(0));
        const std::string error = Value(arg(1));
        Flush(out);
        out.Line(fmt::format("if (!({})) {{ s.sm.{}_ = {}; goto reject; }}", condition,
                             Arch().parserErrorField, error));
    }
    else if (runtime == R::MarkToDrop && inControl)
    {
        const std::string sm = LValue(arg(0));
        Flush(out);
        out.Line(fmt::format("{}.{}_ = p4rt::kV1DropPort; {}.{}_ = 0;", sm,
                             Arch().egressSpecField, sm,
                             Arch().multicastGroupField));
    }
    else if (runtime == R::Hash && inControl)
    {
        const unsigned width = Width(arg(0).type);
        const std::string target = LValue(arg(0));
        const std::string algorithm = HashAlgorithm(arg(1));
        const std::string base = Value(arg(2));
        const std::string max = Value(arg(4));
        const PackedInput input = Pack(arg(3));
        Flush(out);
        out.Open("");
        EmitPacked(input, out);
        out.Line(fmt::format("{} = {};", target,
                             Masked(fmt::format("p4rt::ReduceHash({}, {}, {})",
                                                HashOf(algorithm, input), base, max),
                                    width)));
        out.Close();
    }
    else if ((runtime == R::UpdateChecksum || runtime == R::VerifyChecksum) && inControl)
    {
        const std::string condition = Value(arg(0));
        const std::string checksum =
            runtime == R::UpdateChecksum ? LValue(arg(2)) : Value(arg(2));
        const unsigned width = Width(arg(2).type);
        const std::string algorithm = HashAlgorithm(arg(3));
        const PackedInput input = Pack(arg(1));
        Flush(out);
        out.Open("if (" + condition + ")");
        EmitPacked(input, out);
        const std::string computed = Masked(HashOf(algorithm, input), width);
        if (runtime == R::UpdateChecksum)
        {
            out.Line(fmt::format("{} = {};", checksum, computed));
        }
        else
        {
            out.Line(fmt::format("if ({} != {}) s.sm.{}_ = 1;", computed, checksum,
                                 Arch().checksumErrorField));
        }
        out.Close();
    }
    else if ((runtime == R::Clone || runtime == R::ClonePreservingFieldList) && inControl)
    {
        const std::string session = Value(arg(1));
        const std::string list = runtime == R::Clone ? "0" : Value(arg(2));
        Flush(out);
        out.Line(fmt::format("md.clone = true; md.cloneSession = static_cast<uint32_t>({}); "
                             "md.cloneFieldList = static_cast<uint8_t>({});",
                             session, list));
    }
    else if (runtime == R::ResubmitPreservingFieldList && inControl)
    {
        const std::string list = Value(arg(0));
        Flush(out);
        out.Line(fmt::format("md.resubmit = true; md.resubmitFieldList = "
                             "static_cast<uint8_t>({});",
                             list));
    }
    else if (runtime == R::RecirculatePreservingFieldList && inControl)
    {
        const std::string list = Value(arg(0));
        Flush(out);
        out.Line(fmt::format("md.recirculate = true; md.recirculateFieldList = "
                             "static_cast<uint8_t>({});",
                             list));
    }
    else if (runtime == R::Truncate && inControl)
    {
        const std::string length = Value(arg(0));
        Flush(out);
        out.Line(fmt::format("md.truncateLength = static_cast<uint32_t>({});", length));
    }
    else if (runtime == R::LogMsg)
    {
        // Logging has no effect on forwarding; incsim's traces record what matters.
    }
    else
    {
        const bool unsupported = known && runtime == R::Unsupported;
        Unsupported(call.location,
                    "extern '" + name + "'" + (inControl || unsupported ? "" : " here"),
                    unsupported ? known->reason : "");
    }
}

std::string
Generator::HashAlgorithm(const Expression& algorithm)
{
    const auto* member = algorithm.As<MemberExpr>();
    const auto& algorithms = Arch().hashAlgorithms;
    const auto found = member ? algorithms.find(member->member) : algorithms.end();
    if (found == algorithms.end())
    {
        Unsupported(algorithm.location, "hash algorithm " + ToString(algorithm),
                    "incsim has crc16, crc32, identity, csum16 and xor16");
        return "p4rt::HashAlgorithm::Crc32";
    }
    return "p4rt::HashAlgorithm::" + found->second;
}

Generator::PackedInput
Generator::Pack(const Expression& data)
{
    PackedInput input;
    input.buffer = Temp("input");
    input.bits = PackData(data, input.buffer, input.stores);
    return input;
}

void
Generator::EmitPacked(const PackedInput& input, CodeWriter& out)
{
    out.Line(fmt::format("uint8_t {}[{}] = {{}};", input.buffer,
                         std::max<size_t>(1, (input.bits + 7) / 8)));
    for (const auto& line : input.stores)
    {
        out.Line(line);
    }
}

std::string
Generator::HashOf(const std::string& algorithm, const PackedInput& input)
{
    const size_t bytes = (input.bits + 7) / 8;
    if (algorithm == "p4rt::HashAlgorithm::Identity" && input.bits % 8 == 0 && bytes <= 8 &&
        bytes > 0)
    {
        return fmt::format("p4rt::LoadBigEndian({}, {})", input.buffer, bytes);
    }
    return fmt::format("p4rt::ComputeHash({}, {}, {})", algorithm, input.buffer, bytes);
}

size_t
Generator::PackData(const Expression& data, const std::string& buffer,
                    std::vector<std::string>& lines, size_t offset)
{
    if (const auto* list = data.As<ListExpr>())
    {
        for (const auto& element : list->elements)
        {
            offset = PackData(*element, buffer, lines, offset);
        }
        return offset;
    }
    const Type* type = Canon(data.type);
    if (const auto* decl = StructOf(type))
    {
        return PackFields(Value(data), *decl, buffer, lines, offset);
    }
    if (Width(type) == 0)
    {
        Fail(data.location, "a hash or checksum input needs a width: cast it");
        return offset;
    }
    std::string value = Value(data);
    if (IsBool(type))
    {
        value = "uint64_t{" + value + "}";
    }
    return PackValue(value, Width(type), buffer, lines, offset);
}

size_t
Generator::PackFields(const std::string& object, const StructLikeDecl& decl,
                      const std::string& buffer, std::vector<std::string>& lines, size_t offset)
{
    for (const auto& field : decl.fields)
    {
        const Type* type = Canon(field->type.get());
        const std::string value = object + "." + field->name + "_";
        if (const auto* inner = StructOf(type))
        {
            offset = PackFields(value, *inner, buffer, lines, offset);
        }
        else if (Width(type) > 0)
        {
            offset = PackValue(value, Width(type), buffer, lines, offset);
        }
        else
        {
            Unsupported(field->location, "hashing a field of this type");
        }
    }
    return offset;
}

size_t
Generator::PackValue(const std::string& value, unsigned width, const std::string& buffer,
                     std::vector<std::string>& lines, size_t offset)
{
    if (width > 64)
    {
        lines.push_back(fmt::format("{}.Insert({}, {});", value, buffer, offset));
    }
    else if (offset % 8 == 0 && width % 8 == 0)
    {
        lines.push_back(fmt::format("p4rt::StoreBigEndian({} + {}, {}, {});", buffer,
                                    offset / 8, value, width / 8));
    }
    else
    {
        lines.push_back(
            fmt::format("p4rt::InsertBits({}, {}, {}, {});", buffer, offset, width, value));
    }
    return offset + width;
}

} // namespace incsim::p4::backend
