// Expressions, lvalues and assignment.

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

std::string
Generator::Masked(const std::string& value, unsigned width)
{
    if (width >= 64 || width == 0)
    {
        return value;
    }
    return fmt::format("({} & {})", value, Hex(p4rt::WidthMask(width)));
}

std::string
Generator::Operand(const Expression& expression, unsigned width)
{
    const std::string value = Value(expression);
    return IsInfInt(expression.type) ? Masked(value, width) : value;
}

std::string
Generator::Value(const Expression& expression)
{
    const Type* type = Canon(expression.type);
    const unsigned width = Width(type);
    if (const auto constant = EvalConst(expression); constant && width <= 64 &&
                                                     !IsBool(type))
    {
        return Hex(*constant);
    }
    if (const auto* literal = expression.As<IntegerLiteral>())
    {
        if (width > 64)
        {
            return WideConstant(literal->value, width);
        }
        Unsupported(expression.location, "an integer literal wider than 64 bits here");
        return "0";
    }
    if (const auto* boolean = expression.As<BoolLiteral>())
    {
        return boolean->value ? "true" : "false";
    }
    if (const auto* name = expression.As<NameExpr>())
    {
        return NameValue(*name);
    }
    if (const auto* member = expression.As<MemberExpr>())
    {
        return MemberValue(*member);
    }
    if (const auto* index = expression.As<IndexExpr>())
    {
        return IndexValue(*index);
    }
    if (const auto* slice = expression.As<SliceExpr>())
    {
        return SliceValue(*slice);
    }
    if (const auto* unary = expression.As<UnaryExpr>())
    {
        return UnaryValue(*unary);
    }
    if (const auto* binary = expression.As<BinaryExpr>())
    {
        return BinaryValue(*binary);
    }
    if (const auto* ternary = expression.As<TernaryExpr>())
    {
        const std::string condition = Value(*ternary->condition);
        ++m_conditional;
        std::string a = Operand(*ternary->ifTrue, width);
        std::string b = Operand(*ternary->ifFalse, width);
        --m_conditional;
        return fmt::format("({} ? {} : {})", condition, a, b);
    }
    if (const auto* cast = expression.As<CastExpr>())
    {
        return CastValue(*cast);
    }
    if (const auto* call = expression.As<CallExpr>())
    {
        return CallValue(*call);
    }
    Unsupported(expression.location, "this expression (" + ToString(expression) + ")");
    return "0";
}

std::string
Generator::NameValue(const NameExpr& name)
{
    const Declaration* decl = name.resolved;
    if (const auto found = m_names.find(decl); found != m_names.end())
    {
        return found->second;
    }
    if (const auto* constant = decl ? decl->As<ConstDecl>() : nullptr)
    {
        if (const auto folded = m_folder->Folded(constant); folded && IsBool(constant->type.get()))
        {
            return *folded ? "true" : "false";
        }
        if (constant->value)
        {
            if (IsWide(constant->type.get()))
            {
                const Expression* value = constant->value.get();
                if (const auto* literal = value->As<IntegerLiteral>())
                {
                    return WideConstant(literal->value, Width(constant->type.get()));
                }
            }
            return Value(*constant->value);
        }
    }
    Unsupported(name.location, "this use of '" + name.name + "'");
    return "0";
}

std::string
Generator::StackElement(const std::string& stack, const std::string& member)
{
    if (member == "next")
    {
        return stack + ".element[" + stack + ".nextIndex]";
    }
    return fmt::format("{0}.element[{0}.nextIndex == 0 ? 0 : {0}.nextIndex - 1]", stack);
}

std::string
Generator::MemberValue(const MemberExpr& member)
{
    if (const auto value = m_folder->EnumOrErrorValue(member))
    {
        return Hex(*value);
    }
    const Type* objectType = Canon(member.object->type);
    if (objectType && objectType->Is<StackType>())
    {
        const std::string stack = LValue(*member.object);
        const auto* stackType = objectType->As<StackType>();
        if (member.member == "next" || member.member == "last")
        {
            if (member.member == "next")
            {
                Unsupported(member.location, "reading a header stack's .next");
            }
            return StackElement(stack, member.member);
        }
        if (member.member == "size")
        {
            return Hex(stackType->count);
        }
        if (member.member == "nextIndex")
        {
            return "uint64_t{" + stack + ".nextIndex}";
        }
        if (member.member == "lastIndex")
        {
            return fmt::format("((uint64_t{{{}.nextIndex}} - 1) & 0xffffffff)", stack);
        }
    }
    if (const auto* call = member.object->As<CallExpr>())
    {
        if (IsTableApply(*call))
        {
            const std::string result = ApplyTable(*call);
            if (member.member == "hit")
            {
                return result + ".hit";
            }
            if (member.member == "miss")
            {
                return "!" + result + ".hit";
            }
            return result + ".actionRun";
        }
    }
    return Value(*member.object) + "." + member.member + "_";
}

std::string
Generator::IndexValue(const IndexExpr& index)
{
    const Type* objectType = Canon(index.object->type);
    const auto* stack = objectType ? objectType->As<StackType>() : nullptr;
    const auto position = EvalConst(*index.index);
    if (!stack)
    {
        Unsupported(index.location, "indexing a value that is not a header stack");
        return "0";
    }
    if (!position)
    {
        Unsupported(index.index->location, "a header stack index that is not a constant");
        return "0";
    }
    return fmt::format("{}.element[{}]", Value(*index.object), *position);
}

std::string
Generator::SliceValue(const SliceExpr& slice)
{
    const auto high = EvalConst(*slice.high);
    const auto low = EvalConst(*slice.low);
    if (!high || !low || *high < *low)
    {
        Fail(slice.location, "slice bounds must be constants with high >= low");
        return "0";
    }
    const unsigned width = static_cast<unsigned>(*high - *low + 1);
    const unsigned objectWidth = Width(slice.object->type);
    if (objectWidth > 64)
    {
        if (width > 64)
        {
            Unsupported(slice.location, "a slice wider than 64 bits");
        }
        return fmt::format("p4rt::ExtractBits({}.Bytes(), {}, {})", Value(*slice.object),
                           (objectWidth + 7) / 8 * 8 - 1 - *high, width);
    }
    return Masked(fmt::format("({} >> {})", Value(*slice.object), *low), width);
}

std::string
Generator::UnaryValue(const UnaryExpr& unary)
{
    const unsigned width = Width(unary.type);
    const std::string operand = Value(*unary.operand);
    switch (unary.op)
    {
    case UnaryOp::Not:
        return "!" + operand;
    case UnaryOp::Plus:
        return operand;
    case UnaryOp::Negate:
        if (width > 64)
        {
            Unsupported(unary.location, "arithmetic on values wider than 64 bits");
        }
        return Masked("(UINT64_C(0) - " + operand + ")", width);
    case UnaryOp::Complement:
        if (width > 64)
        {
            return "~" + operand;
        }
        return Masked("(~" + operand + ")", width);
    }
    return operand;
}

std::string
Generator::BinaryValue(const BinaryExpr& binary)
{
    const BinaryOp op = binary.op;
    if (op == BinaryOp::And || op == BinaryOp::Or)
    {
        const std::string left = Value(*binary.left);
        ++m_conditional;
        const std::string right = Value(*binary.right);
        --m_conditional;
        return fmt::format("({} {} {})", left, op == BinaryOp::And ? "&&" : "||", right);
    }
    if (op == BinaryOp::Mask || op == BinaryOp::Range)
    {
        Unsupported(binary.location,
                    std::string("'") + ToString(op) + "' outside a select or an entry");
        return "0";
    }
    const Type* leftType = IsInfInt(binary.left->type) ? binary.right->type : binary.left->type;
    const unsigned width = Width(leftType);
    const bool isSigned = IsSigned(leftType);
    const bool comparison = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt ||
                            op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
    if (comparison && (StructOf(leftType) || Canon(leftType)->Is<StackType>()))
    {
        Unsupported(binary.location, "comparing headers or structs");
        return "false";
    }
    if (width > 64 || (op == BinaryOp::Concat && Width(binary.type) > 64))
    {
        if (op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::BitAnd ||
            op == BinaryOp::BitOr || op == BinaryOp::BitXor)
        {
            return fmt::format("({} {} {})", Value(*binary.left), ToString(op),
                               Value(*binary.right));
        }
        Unsupported(binary.location, std::string("'") + ToString(op) +
                                         "' on values wider than 64 bits");
        return "0";
    }
    const bool isBool = IsBool(leftType);
    std::string a = isBool ? Value(*binary.left) : Operand(*binary.left, width);
    std::string b;
    if (op == BinaryOp::Shl || op == BinaryOp::Shr)
    {
        b = Value(*binary.right);
    }
    else
    {
        b = isBool ? Value(*binary.right) : Operand(*binary.right, width);
    }
    if (isSigned && (op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
                     op == BinaryOp::Ge))
    {
        a = fmt::format("p4rt::SignExtend({}, {})", a, width);
        b = fmt::format("p4rt::SignExtend({}, {})", b, width);
    }
    switch (op)
    {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
        return Masked(fmt::format("({} {} {})", a, ToString(op), b), width);
    case BinaryOp::Div:
    case BinaryOp::Mod:
        if (isSigned)
        {
            Unsupported(binary.location, "division of signed values");
        }
        return fmt::format("p4rt::{}Unsigned({}, {})", op == BinaryOp::Div ? "Divide" : "Modulo",
                           a, b);
    case BinaryOp::AddSat:
    case BinaryOp::SubSat:
        return fmt::format("p4rt::{}Sat{}({}, {}, {})", op == BinaryOp::AddSat ? "Add" : "Sub",
                           isSigned ? "Signed" : "Unsigned", a, b, width);
    case BinaryOp::Shl:
        return fmt::format("p4rt::ShiftLeft({}, {}, {})", a, b, width);
    case BinaryOp::Shr:
        return isSigned ? fmt::format("p4rt::ShiftRightSigned({}, {}, {})", a, b, width)
                        : fmt::format("p4rt::ShiftRightUnsigned({}, {})", a, b);
    case BinaryOp::Concat:
        return fmt::format("(({} << {}) | {})", a, Width(binary.right->type), b);
    default:
        // The remaining operators are spelled alike in P4 and C++.
        return fmt::format("({} {} {})", a, ToString(op), b);
    }
}

std::string
Generator::CastValue(const CastExpr& cast)
{
    const Type* to = Canon(cast.target.get());
    const Type* from = Canon(cast.operand->type);
    const unsigned toWidth = Width(to);
    const unsigned fromWidth = Width(from);
    const std::string value = Value(*cast.operand);
    if (IsBool(to))
    {
        return IsBool(from) ? value : "(" + value + " != 0)";
    }
    if (IsBool(from))
    {
        return "uint64_t{" + value + " ? 1u : 0u}";
    }
    if (toWidth > 64 || fromWidth > 64)
    {
        if (toWidth > 64 && fromWidth > 64)
        {
            if (toWidth != fromWidth)
            {
                Unsupported(cast.location, "a cast between different widths above 64 bits");
            }
            return value;
        }
        if (toWidth > 64)
        {
            return fmt::format("p4rt::WideBits<{}>::FromUint64({})", toWidth, value);
        }
        return Masked(value + ".Low64()", toWidth);
    }
    if (IsInfInt(from))
    {
        return Masked(value, toWidth);
    }
    if (IsSigned(from) && toWidth > fromWidth)
    {
        return fmt::format("p4rt::FromSigned(p4rt::SignExtend({}, {}), {})", value, fromWidth,
                           toWidth);
    }
    return toWidth < fromWidth ? Masked(value, toWidth) : value;
}

std::string
Generator::CallValue(const CallExpr& call)
{
    const auto* member = call.callee->As<MemberExpr>();
    if (member && member->member == "isValid")
    {
        return Value(*member->object) + ".valid";
    }
    if (member && member->member == "lookahead" && IsPacketParam(*member->object))
    {
        return Lookahead(call);
    }
    if (IsTableApply(call))
    {
        Unsupported(call.location, "using apply()'s result other than .hit, .miss or "
                                   ".action_run");
        return "0";
    }
    Unsupported(call.location, "a call used as a value (" + ToString(call) + ")");
    return "0";
}

bool
Generator::IsPacketParam(const Expression& expression) const
{
    const auto* name = expression.As<NameExpr>();
    return name && m_packetParams.count(name->resolved);
}

std::string
Generator::LValue(const Expression& expression)
{
    if (const auto* name = expression.As<NameExpr>())
    {
        if (const auto found = m_names.find(name->resolved); found != m_names.end())
        {
            return found->second;
        }
        Fail(name->location, "'" + name->name + "' cannot be written");
        return "unused";
    }
    if (const auto* member = expression.As<MemberExpr>())
    {
        const Type* objectType = Canon(member->object->type);
        if (objectType && objectType->Is<StackType>() &&
            (member->member == "next" || member->member == "last"))
        {
            if (member->member == "next")
            {
                Unsupported(member->location, "writing a header stack's .next outside "
                                              "extract");
            }
            return StackElement(LValue(*member->object), member->member);
        }
        return LValue(*member->object) + "." + member->member + "_";
    }
    if (const auto* index = expression.As<IndexExpr>())
    {
        const auto position = EvalConst(*index->index);
        if (!position)
        {
            Unsupported(index->index->location, "a header stack index that is not a constant");
            return "unused";
        }
        return fmt::format("{}.element[{}]", LValue(*index->object), *position);
    }
    Unsupported(expression.location, "assigning to " + ToString(expression));
    return "unused";
}

std::string
Generator::ValueFor(const Expression& value, const Type* to)
{
    const unsigned width = Width(to);
    if (IsInfInt(value.type) && width > 0 && width <= 64)
    {
        return Operand(value, width);
    }
    return Value(value);
}

void
Generator::Assign(const Expression& target, const Expression& value, CodeWriter& out)
{
    if (const auto* slice = target.As<SliceExpr>())
    {
        const auto high = EvalConst(*slice->high);
        const auto low = EvalConst(*slice->low);
        if (!high || !low || Width(slice->object->type) > 64)
        {
            Unsupported(slice->location, "this slice as an assignment target");
            return;
        }
        const std::string object = LValue(*slice->object);
        const std::string v = ValueFor(value, slice->type);
        Flush(out);
        out.Line(fmt::format("{0} = p4rt::ReplaceSlice({0}, {1}, {2}, {3});", object, *high,
                             *low, v));
        return;
    }
    const Type* targetType = Canon(target.type);
    if (const auto* decl = StructOf(targetType);
        decl && (value.Is<ListExpr>() || value.Is<StructExpr>()))
    {
        const std::string object = LValue(target);
        std::vector<std::pair<std::string, std::string>> fields;
        if (const auto* list = value.As<ListExpr>())
        {
            for (size_t i = 0; i < list->elements.size() && i < decl->fields.size(); ++i)
            {
                fields.emplace_back(decl->fields[i]->name,
                                    ValueFor(*list->elements[i], decl->fields[i]->type.get()));
            }
        }
        else
        {
            for (const auto& field : value.As<StructExpr>()->fields)
            {
                const StructField* declared = decl->FindField(field->name);
                fields.emplace_back(field->name,
                                    ValueFor(*field->value,
                                             declared ? declared->type.get() : nullptr));
            }
        }
        Flush(out);
        for (const auto& [name, v] : fields)
        {
            out.Line(fmt::format("{}.{}_ = {};", object, name, v));
        }
        if (decl->Is<HeaderDecl>())
        {
            out.Line(object + ".valid = true;");
        }
        return;
    }
    const std::string v = ValueFor(value, targetType);
    const std::string object = LValue(target);
    Flush(out);
    out.Line(object + " = " + v + ";");
}

void
Generator::Flush(CodeWriter& out)
{
    for (const std::string& line : m_pre)
    {
        out.Line(line);
    }
    m_pre.clear();
}

} // namespace incsim::p4::backend
