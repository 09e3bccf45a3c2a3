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
    const unsigned width = Width(type);
    if (width == 0 || width > 64 || IsBool(type))
    {
        Unsupported(call.location, "lookahead<" + ToString(*call.typeArgs[0]) + ">");
        return "0";
    }
    m_pre.push_back(NeedBytes(std::to_string((width + 7) / 8)));
    m_pre.push_back(fmt::format("const uint64_t {} = p4rt::ExtractBits(pkt + off, 0, {});",
                                result, width));
    return result;
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
    if (method == "extract" && m_context == Context::Parser && call.args.size() == 1)
    {
        Extract(*call.args[0]->value, out);
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
Generator::Extract(const Expression& target, CodeWriter& out)
{
    const Type* type = Canon(target.type);
    const auto* header = StructOf(type);
    if (!header || !header->Is<HeaderDecl>())
    {
        Unsupported(target.location, "extracting something that is not a header");
        return;
    }
    const unsigned bytes = HeaderBytes(*header);
    const auto* member = target.As<MemberExpr>();
    const Type* objectType = member ? Canon(member->object->type) : nullptr;
    out.Open("");
    if (objectType && objectType->Is<StackType>() && member->member == "next")
    {
        const std::string stack = LValue(*member->object);
        Flush(out);
        out.Line(fmt::format("if ({}.nextIndex >= {}) {{ {} }}", stack,
                             objectType->As<StackType>()->count,
                             ParserError("StackOutOfBounds")));
        out.Line(NeedBytes(std::to_string(bytes)));
        out.Line(fmt::format("auto& header = {}.element[{}.nextIndex++];", stack, stack));
    }
    else
    {
        const std::string object = LValue(target);
        Flush(out);
        out.Line(NeedBytes(std::to_string(bytes)));
        out.Line(fmt::format("auto& header = {};", object));
    }
    out.Line("ExtractHeader(pkt + off, header);");
    out.Line("header.valid = true;");
    out.Line(fmt::format("off += {};", bytes));
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
