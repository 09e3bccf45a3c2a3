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
        return TernaryValue(*ternary);
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
        return fmt::format("p4rt::StackAt({}, {})", Value(*index.object), Value(*index.index));
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
        std::vector<std::string> rightPre;
        const std::string right = Hoisting(rightPre, [&] { return Value(*binary.right); });
        if (rightPre.empty())
        {
            return fmt::format("({} {} {})", left, op == BinaryOp::And ? "&&" : "||", right);
        }
        // The right operand hoists statements (a table apply): they run only when the left
        // one does not decide, as C++'s && and || would.
        const std::string result = Temp("shortCircuit");
        m_pre.push_back(fmt::format("bool {} = {};", result, left));
        m_pre.push_back(fmt::format("if ({}{}) {{", op == BinaryOp::And ? "" : "!", result));
        Nest(rightPre, result + " = " + right + ";");
        m_pre.push_back("}");
        return result;
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
        if (op != BinaryOp::Eq && op != BinaryOp::Ne)
        {
            Unsupported(binary.location, "ordering headers or structs");
            return "false";
        }
        const std::string equal = Equal(Value(*binary.left), Value(*binary.right), leftType);
        return op == BinaryOp::Eq ? equal : "!" + equal;
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
Generator::Equal(const std::string& a, const std::string& b, const Type* type)
{
    type = Canon(type);
    if (const auto* stack = type->As<StackType>())
    {
        std::string all;
        for (uint32_t i = 0; i < stack->count; ++i)
        {
            all += fmt::format("{}{}", i == 0 ? "" : " && ",
                               Equal(fmt::format("{}.element[{}]", a, i),
                                     fmt::format("{}.element[{}]", b, i), stack->element.get()));
        }
        return stack->count == 0 ? "true" : "(" + all + ")";
    }
    const StructLikeDecl* decl = StructOf(type);
    if (!decl)
    {
        return fmt::format("({} == {})", a, b);
    }
    std::string fields;
    for (const auto& field : decl->fields)
    {
        fields += fmt::format("{}{}", fields.empty() ? "" : " && ",
                              Equal(a + "." + field->name + "_", b + "." + field->name + "_",
                                    field->type.get()));
    }
    if (fields.empty())
    {
        fields = "true";
    }
    if (!decl->Is<HeaderDecl>())
    {
        return "(" + fields + ")";
    }
    // Two headers are equal when both are invalid, or both are valid with equal fields.
    return fmt::format("({0}.valid == {1}.valid && (!{0}.valid || ({2})))", a, b, fields);
}

std::string
Generator::TernaryValue(const TernaryExpr& ternary)
{
    const unsigned width = Width(Canon(ternary.type));
    const std::string condition = Value(*ternary.condition);
    std::vector<std::string> truePre;
    std::vector<std::string> falsePre;
    const std::string a = Hoisting(truePre, [&] { return Operand(*ternary.ifTrue, width); });
    const std::string b = Hoisting(falsePre, [&] { return Operand(*ternary.ifFalse, width); });
    if (truePre.empty() && falsePre.empty())
    {
        return fmt::format("({} ? {} : {})", condition, a, b);
    }
    // A branch hoists statements (a table apply): they run only on that branch.
    const std::string result = Temp("choice");
    m_pre.push_back(fmt::format("{} {}{{}};", ValueType(ternary.type, ternary.location), result));
    m_pre.push_back(fmt::format("if ({}) {{", condition));
    Nest(truePre, result + " = " + a + ";");
    m_pre.push_back("} else {");
    Nest(falsePre, result + " = " + b + ";");
    m_pre.push_back("}");
    return result;
}

std::string
Generator::Hoisting(std::vector<std::string>& hoisted, const std::function<std::string()>& value)
{
    std::swap(m_pre, hoisted);
    const std::string result = value();
    std::swap(m_pre, hoisted);
    return result;
}

void
Generator::Nest(const std::vector<std::string>& hoisted, const std::string& last)
{
    for (const std::string& line : hoisted)
    {
        m_pre.push_back("    " + line);
    }
    m_pre.push_back("    " + last);
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
        const std::string object = Value(*member->object);
        if (const auto* decl = StructOf(Canon(member->object->type));
            decl && decl->Is<StructDecl>() && decl->As<StructDecl>()->isUnion)
        {
            // A header_union is valid when one of its members is.
            std::string any;
            for (const auto& field : decl->fields)
            {
                any += fmt::format("{}{}.{}_.valid", any.empty() ? "" : " || ", object,
                                   field->name);
            }
            return "(" + (any.empty() ? std::string("false") : any) + ")";
        }
        return object + ".valid";
    }
    if (const std::string name = member ? member->member : "";
        member && !member->resolved &&
        (name == "minSizeInBits" || name == "minSizeInBytes" || name == "maxSizeInBits" ||
         name == "maxSizeInBytes"))
    {
        const auto bits = SizeInBits(member->object->type, name.rfind("max", 0) == 0);
        if (!bits)
        {
            Unsupported(call.location, "'" + name + "()' of " + TypeText(member->object->type));
            return "0";
        }
        return Hex(name.find("Bytes") != std::string::npos ? (*bits + 7) / 8 : *bits);
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
            // Out of range, the write goes to a scratch element that is dropped.
            const std::string stack = LValue(*index->object);
            const std::string at = Value(*index->index);
            const std::string scratch = Temp("outOfRange");
            m_pre.push_back(fmt::format("{} {}{{}};", StorageType(expression.type,
                                                                  expression.location),
                                        scratch));
            return fmt::format("p4rt::StackAt({}, {}, {})", stack, at, scratch);
        }
        return fmt::format("{}.element[{}]", LValue(*index->object), *position);
    }
    Unsupported(expression.location, "assigning to " + ToString(expression));
    return "unused";
}

std::string
Generator::Store(const Expression& target, const std::string& value)
{
    const auto* slice = target.As<SliceExpr>();
    if (!slice)
    {
        return LValue(target) + " = " + value + ";";
    }
    // Nested slices (`n[7:4][3:0]`) select bits of the innermost object: offsets add up.
    const Expression* object = &target;
    uint64_t low = 0;
    while (const auto* inner = object->As<SliceExpr>())
    {
        const auto innerLow = EvalConst(*inner->low);
        if (!innerLow || !EvalConst(*inner->high))
        {
            Fail(inner->location, "slice bounds must be constants with high >= low");
            return "";
        }
        low += *innerLow;
        object = inner->object.get();
    }
    if (Width(object->type) > 64)
    {
        Unsupported(slice->location, "this slice as an assignment target");
        return "";
    }
    const uint64_t high = low + Width(slice->type) - 1;
    return fmt::format("{0} = p4rt::ReplaceSlice({0}, {1}, {2}, {3});", LValue(*object), high,
                       low, value);
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
        const std::string store = Store(target, ValueFor(value, slice->type));
        Flush(out);
        out.Line(store);
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
        const std::vector<std::string> siblings = InvalidateSiblings(target);
        Flush(out);
        for (const auto& [name, v] : fields)
        {
            out.Line(fmt::format("{}.{}_ = {};", object, name, v));
        }
        if (decl->Is<HeaderDecl>())
        {
            out.Line(object + ".valid = true;");
            for (const std::string& line : siblings)
            {
                out.Line(line);
            }
        }
        return;
    }
    const std::string v = ValueFor(value, targetType);
    const std::string object = LValue(target);
    const std::vector<std::string> siblings = InvalidateSiblings(target);
    Flush(out);
    out.Line(object + " = " + v + ";");
    if (!siblings.empty())
    {
        out.Open("if (" + object + ".valid)");
        for (const std::string& line : siblings)
        {
            out.Line(line);
        }
        out.Close();
    }
}

std::vector<std::string>
Generator::InvalidateSiblings(const Expression& target)
{
    const auto* member = target.As<MemberExpr>();
    const auto* decl = member ? StructOf(Canon(member->object->type)) : nullptr;
    const auto* unionDecl = decl ? decl->As<StructDecl>() : nullptr;
    if (!unionDecl || !unionDecl->isUnion)
    {
        return {};
    }
    const std::string object = LValue(*member->object);
    std::vector<std::string> lines;
    for (const auto& field : unionDecl->fields)
    {
        if (field->name != member->member)
        {
            lines.push_back(fmt::format("{}.{}_.valid = false;", object, field->name));
        }
    }
    return lines;
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
