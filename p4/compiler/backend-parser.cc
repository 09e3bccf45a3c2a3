// The parser: its states and their transitions as the IR gives them (explicit edges, keysets
// one per selector), select, extract, lookahead, advance.

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

std::string
Generator::Lookahead(const CallExpr& call)
{
    if (m_context != Context::Parser || call.typeArgs.size() != 1)
    {
        Unsupported(call.location, "lookahead outside a parser state");
        return "0";
    }
    const Type* type = Canon(call.typeArgs[0].get());
    const std::string result = Temp("lookahead");
    if (const auto* header = StructOf(type); header && header->Is<HeaderDecl>())
    {
        const unsigned bytes = HeaderBytes(*header);
        m_pre.push_back(NeedBytes(std::to_string(bytes)));
        m_pre.push_back(fmt::format("{} {}{{}};", StructName(*header), result));
        m_pre.push_back(fmt::format("ExtractHeader(pkt + off, {});", result));
        m_pre.push_back(result + ".valid = true;");
        return result;
    }
    if (const auto* decl = StructOf(type);
        decl || type->Is<StackType>() || IsWide(type) || IsBool(type))
    {
        // A struct (of scalars, headers, stacks, structs), a wide value or a bool: loaded
        // field by field from the bits ahead, as extracting them one after the other would.
        std::vector<std::string> loads;
        const size_t bits = LoadAhead(result, type, 0, call.location, loads);
        m_pre.push_back(NeedBytes(std::to_string((bits + 7) / 8)));
        m_pre.push_back(fmt::format("{} {}{{}};", ValueType(type, call.location), result));
        m_pre.insert(m_pre.end(), loads.begin(), loads.end());
        return result;
    }
    const unsigned width = Width(type);
    if (width == 0)
    {
        Unsupported(call.location, "lookahead<" + ToString(*call.typeArgs[0]) + ">");
        return "0";
    }
    m_pre.push_back(NeedBytes(std::to_string((width + 7) / 8)));
    m_pre.push_back(fmt::format("const uint64_t {} = p4rt::ExtractBits(pkt + off, 0, {});",
                                result, width));
    return result;
}

size_t
Generator::LoadAhead(const std::string& object, const Type* type, size_t bitOffset,
                     const SourceLocation& where, std::vector<std::string>& lines)
{
    type = Canon(type);
    if (const auto* stack = type->As<StackType>())
    {
        size_t bits = 0;
        for (uint32_t i = 0; i < stack->count; ++i)
        {
            bits += LoadAhead(fmt::format("{}.element[{}]", object, i), stack->element.get(),
                              bitOffset + bits, where, lines);
        }
        return bits;
    }
    if (const auto* decl = StructOf(type))
    {
        size_t bits = 0;
        for (const auto& field : decl->fields)
        {
            bits += LoadAhead(object + "." + field->name + "_", field->type.get(),
                              bitOffset + bits, where, lines);
        }
        if (decl->Is<HeaderDecl>())
        {
            lines.push_back(object + ".valid = true;");
        }
        return bits;
    }
    const unsigned width = Width(type);
    if (width == 0)
    {
        Unsupported(where, "lookahead of a value of type " + TypeText(type));
        return 0;
    }
    if (width > 64)
    {
        lines.push_back(fmt::format("{} = p4rt::WideBits<{}>::Extract(pkt + off, {});", object,
                                    width, bitOffset));
    }
    else
    {
        lines.push_back(fmt::format("{} = p4rt::ExtractBits(pkt + off, {}, {}){};", object,
                                    bitOffset, width, IsBool(type) ? " != 0" : ""));
    }
    return width;
}

std::string
Generator::ParserError(const std::string& error)
{
    return fmt::format("s.sm.{}_ = {}; goto reject;", Arch().parserErrorField,
                       Hex(m_folder->ErrorCodes().at(error)));
}

std::string
Generator::NeedBytes(const std::string& bytes)
{
    return fmt::format("if (len - off < {}) {{ {} }}", bytes, ParserError("PacketTooShort"));
}

void
Generator::PacketCall(const CallExpr& call, const std::string& method, CodeWriter& out)
{
    if (method == "extract" && m_context == Context::Parser && call.args.size() == 1 &&
        call.args[0]->value->Is<DontCareExpr>() && call.typeArgs.size() == 1)
    {
        // extract<H>(_): skips a header.
        const auto* header = StructOf(Canon(call.typeArgs[0].get()));
        if (!header || !header->Is<HeaderDecl>())
        {
            Unsupported(call.location, "extracting something that is not a header");
            return;
        }
        const unsigned bytes = HeaderBytes(*header);
        out.Line(NeedBytes(std::to_string(bytes)));
        out.Line(fmt::format("off += {};", bytes));
        return;
    }
    if (method == "extract" && m_context == Context::Parser &&
        (call.args.size() == 1 || call.args.size() == 2))
    {
        Extract(*call.args[0]->value, call.args.size() == 2 ? call.args[1]->value.get() : nullptr,
                out);
        return;
    }
    if (method == "emit" && m_context == Context::Deparser && call.args.size() == 1)
    {
        Emit(*call.args[0]->value, out);
        return;
    }
    if (method == "lookahead")
    {
        Lookahead(call);
        Flush(out);
        return;
    }
    if (method == "advance" && m_context == Context::Parser && call.args.size() == 1)
    {
        const std::string bits = Value(*call.args[0]->value);
        const std::string bytes = Temp("advance");
        Flush(out);
        out.Open("");
        out.Line(fmt::format("const uint64_t {} = ({} + 7) / 8;", bytes, bits));
        out.Line(NeedBytes(bytes));
        out.Line(fmt::format("off += static_cast<uint32_t>({});", bytes));
        out.Close();
        return;
    }
    Unsupported(call.location, "packet." + method + " here");
}

void
Generator::Extract(const Expression& target, const Expression* bits, CodeWriter& out)
{
    const Type* type = Canon(target.type);
    const auto* header = StructOf(type);
    if (!header || !header->Is<HeaderDecl>())
    {
        Unsupported(target.location, "extracting something that is not a header");
        return;
    }
    const unsigned bytes = HeaderBytes(*header);
    const auto varbit = VarbitLeaf(*header);
    if (varbit.has_value() != (bits != nullptr))
    {
        Fail(target.location, varbit ? "extracting a header with a varbit field needs its "
                                       "length in bits: extract(hdr, bits)"
                                     : "extract(hdr, bits) needs a header with a varbit field");
        return;
    }
    const auto* member = target.As<MemberExpr>();
    const Type* objectType = member ? Canon(member->object->type) : nullptr;
    // BMv2's checks of a variable-length extract: a length that is not whole bytes, then one
    // above the varbit's maximum (HeaderTooShort), then the packet's end.
    const std::string length = bits ? Value(*bits) : "";
    std::string size = std::to_string(bytes);
    out.Open("");
    if (bits)
    {
        Flush(out);
        out.Line(fmt::format("const uint64_t varbitBits = {};", length));
        out.Line(fmt::format("if (varbitBits % 8 != 0) {{ {} }}",
                             ParserError("ParserInvalidArgument")));
        out.Line(fmt::format("if (varbitBits > {}) {{ {} }}", varbit->width,
                             ParserError("HeaderTooShort")));
        size = fmt::format("{} + varbitBits / 8", HeaderBits(*header) / 8);
    }
    std::vector<std::string> siblings;
    if (objectType && objectType->Is<StackType>() && member->member == "next")
    {
        const std::string stack = LValue(*member->object);
        Flush(out);
        out.Line(fmt::format("if ({}.nextIndex >= {}) {{ {} }}", stack,
                             objectType->As<StackType>()->count,
                             ParserError("StackOutOfBounds")));
        out.Line(NeedBytes(bits ? "(" + size + ")" : size));
        out.Line(fmt::format("auto& header = {}.element[{}.nextIndex++];", stack, stack));
    }
    else if (const auto* next = member ? member->object->As<MemberExpr>() : nullptr;
             next && next->member == "next" && Canon(next->object->type) &&
             Canon(next->object->type)->Is<StackType>())
    {
        // A member of a stack of header_unions: `u.next.h` extracts into the next union.
        const auto* stackType = Canon(next->object->type)->As<StackType>();
        const std::string stack = LValue(*next->object);
        Flush(out);
        out.Line(fmt::format("if ({}.nextIndex >= {}) {{ {} }}", stack, stackType->count,
                             ParserError("StackOutOfBounds")));
        out.Line(NeedBytes(bits ? "(" + size + ")" : size));
        out.Line(fmt::format("auto& element = {}.element[{}.nextIndex++];", stack, stack));
        out.Line(fmt::format("auto& header = element.{}_;", member->member));
        if (const auto* unionDecl = StructOf(Canon(next->type)))
        {
            for (const auto& field : unionDecl->fields)
            {
                if (field->name != member->member)
                {
                    siblings.push_back("element." + field->name + "_.valid = false;");
                }
            }
        }
    }
    else if (const auto* index = target.As<IndexExpr>();
             index && Canon(index->object->type) && Canon(index->object->type)->Is<StackType>() &&
             !EvalConst(*index->index))
    {
        // extract(hs[i]) with i known only at run time: out of range, the parser rejects with
        // StackOutOfBounds, as p4c's parser unrolling does (not the scratch element of a write).
        const std::string stack = LValue(*index->object);
        const std::string at = Value(*index->index);
        Flush(out);
        out.Line(fmt::format("const uint64_t stackIndex = {};", at));
        out.Line(fmt::format("if (stackIndex >= {}) {{ {} }}",
                             Canon(index->object->type)->As<StackType>()->count,
                             ParserError("StackOutOfBounds")));
        out.Line(NeedBytes(bits ? "(" + size + ")" : size));
        out.Line(fmt::format("auto& header = {}.element[stackIndex];", stack));
    }
    else
    {
        const std::string object = LValue(target);
        siblings = InvalidateSiblings(target);
        Flush(out);
        out.Line(NeedBytes(bits ? "(" + size + ")" : size));
        out.Line(fmt::format("auto& header = {};", object));
    }
    out.Line(bits ? "ExtractHeader(pkt + off, header, static_cast<uint32_t>(varbitBits));"
                  : "ExtractHeader(pkt + off, header);");
    out.Line("header.valid = true;");
    for (const std::string& line : siblings)
    {
        out.Line(line);
    }
    out.Line(fmt::format("off += {};", size));
    out.Close();
}

void
Generator::EmitParser(CodeWriter& out)
{
    m_context = Context::Parser;
    out.Line("");
    out.Open(fmt::format("void Parser_{}(State& s, const uint8_t* pkt, uint32_t len)",
                         m_parser->name));
    out.Line("uint32_t off = 0;");
    InitializeBlockVariables(m_parser->locals, out);
    const ParserState* start = m_parser->FindState("start");
    if (!start)
    {
        Fail(m_parser->location, "parser '" + m_parser->name + "' has no 'start' state");
        out.Close();
        return;
    }
    out.Line("goto " + m_stateLabels.at(start) + ";");
    for (const ir::State& state : m_ir->states)
    {
        out.Line(m_stateLabels.at(state.decl) + ":");
        out.Open("");
        for (const auto& statement : state.decl->statements)
        {
            Statement(*statement, out);
        }
        Transition(state.transition, out);
        out.Close();
    }
    out.Line("accept:");
    out.Line("reject:");
    out.Line("s.base.parsedBytes = off;");
    out.Close();
}

std::string
Generator::StateTarget(const ir::Target& target)
{
    switch (target.kind)
    {
    case ir::Target::Kind::State:
        return "goto " + m_stateLabels.at(m_ir->states[target.state].decl) + ";";
    case ir::Target::Kind::Accept:
        return "goto accept;";
    case ir::Target::Kind::Reject:
        break;
    }
    return "goto reject;";
}

void
Generator::Transition(const ir::Transition& transition, CodeWriter& out)
{
    if (!transition.isSelect)
    {
        if (transition.source && !transition.source->target->Is<NameExpr>())
        {
            Unsupported(transition.source->location, "this transition");
            return;
        }
        out.Line(StateTarget(transition.target));
        return;
    }
    std::vector<std::string> selectors;
    std::vector<unsigned> widths;
    for (const Expression* selector : transition.selectors)
    {
        const unsigned width = Width(selector->type);
        if (width == 0 || width > 64)
        {
            Unsupported(selector->location, "selecting on " + ToString(*selector));
        }
        widths.push_back(width);
        const std::string value = Value(*selector);
        const std::string name = Temp("key");
        m_pre.push_back(fmt::format("const uint64_t {} = {};", name,
                                    IsBool(selector->type) ? "uint64_t{" + value + "}" : value));
        selectors.push_back(name);
    }
    Flush(out);
    for (const ir::SelectCase& selectCase : transition.cases)
    {
        std::string condition;
        if (!selectCase.isDefault)
        {
            if (selectCase.keysets.size() != selectors.size())
            {
                Fail(selectCase.source->location, "this case has the wrong number of keys");
                continue;
            }
            for (size_t i = 0; i < selectCase.keysets.size(); ++i)
            {
                const std::string test =
                    KeysetTest(*selectCase.keysets[i], selectors[i], widths[i]);
                if (!test.empty())
                {
                    condition += (condition.empty() ? "" : " && ") + test;
                }
            }
        }
        const std::string target = StateTarget(selectCase.target);
        out.Line(condition.empty() ? target : "if (" + condition + ") " + target);
        if (condition.empty())
        {
            return;  // a default case: nothing after it can run
        }
    }
    out.Line(ParserError("NoMatch"));
}

std::string
Generator::KeysetTest(const Expression& key, const std::string& selector, unsigned width)
{
    if (key.Is<DefaultExpr>() || key.Is<DontCareExpr>())
    {
        return "";
    }
    const auto constant = [&](const Expression& e) -> std::string {
        const auto value = EvalConst(e);
        if (!value)
        {
            Fail(e.location, "a select case must be a compile-time constant");
            return "0";
        }
        return Hex(p4rt::Truncate(*value, std::min(width, 64u)));
    };
    if (const auto* binary = key.As<BinaryExpr>())
    {
        if (binary->op == BinaryOp::Mask)
        {
            const std::string mask = constant(*binary->right);
            return fmt::format("({} & {}) == ({} & {})", selector, mask,
                               constant(*binary->left), mask);
        }
        if (binary->op == BinaryOp::Range)
        {
            return fmt::format("({} <= {} && {} <= {})", constant(*binary->left), selector,
                               selector, constant(*binary->right));
        }
    }
    return fmt::format("{} == {}", selector, constant(key));
}

} // namespace incsim::p4::backend
