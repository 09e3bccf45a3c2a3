// The semantic checker: name resolution, expression typing and the common type errors.
// See checker.h for what it fills in.

#include "p4/compiler/checker.h"

#include "p4/compiler/architecture.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace incsim::p4
{

using namespace ast;

const ParserState&
AcceptState()
{
    static const ParserState* state = [] {
        auto* s = new ParserState();
        s->name = "accept";
        return s;
    }();
    return *state;
}

const ParserState&
RejectState()
{
    static const ParserState* state = [] {
        auto* s = new ParserState();
        s->name = "reject";
        return s;
    }();
    return *state;
}

namespace
{

using Candidates = std::vector<const Declaration*>;

bool
IsComparison(BinaryOp op)
{
    return op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
           op == BinaryOp::Ge || op == BinaryOp::Eq || op == BinaryOp::Ne;
}

std::string
Plural(size_t count, const char* word)
{
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

class Checker
{
  public:
    Checker(Program& program, Diagnostics& diags)
        : m_program(program),
          m_diags(diags)
    {
    }

    bool Run()
    {
        size_t errorsBefore = m_diags.ErrorCount();
        m_scopes.emplace_back();
        for (auto& declaration : m_program.declarations)
        {
            if (m_diags.LimitReached())
            {
                break;
            }
            CheckDeclaration(*declaration);
        }
        m_scopes.clear();
        return m_diags.ErrorCount() == errorsBefore;
    }

  private:
    enum class Context
    {
        None,
        Parser,
        Control,
        Action,
    };

    // --- scopes ----------------------------------------------------------------------------

    void Declare(const Declaration& declaration)
    {
        Candidates& existing = m_scopes.back()[declaration.name];
        bool overloadable = declaration.Is<FunctionDecl>();
        for (const Declaration* previous : existing)
        {
            overloadable = overloadable && previous->Is<FunctionDecl>();
        }
        if (!existing.empty() && !overloadable)
        {
            m_diags.Error(declaration.location, "'" + declaration.name + "' is already declared");
            m_diags.Note(existing.front()->location, "the previous declaration is here");
            return;
        }
        existing.push_back(&declaration);
    }

    const Candidates* Lookup(const std::string& name, bool global = false) const
    {
        if (global)
        {
            auto found = m_scopes.front().find(name);
            return found == m_scopes.front().end() ? nullptr : &found->second;
        }
        for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope)
        {
            auto found = scope->find(name);
            if (found != scope->end())
            {
                return &found->second;
            }
        }
        return nullptr;
    }

    struct ScopeGuard
    {
        explicit ScopeGuard(Checker& checker)
            : m_checker(checker)
        {
            m_checker.m_scopes.emplace_back();
        }
        ~ScopeGuard() { m_checker.m_scopes.pop_back(); }
        Checker& m_checker;
    };

    // --- types -----------------------------------------------------------------------------

    template <typename T>
    T* Own()
    {
        auto type = std::make_unique<T>();
        T* raw = type.get();
        m_program.ownedTypes.push_back(std::move(type));
        return raw;
    }

    const Type* Bits(uint32_t width, bool isSigned)
    {
        auto key = std::make_pair(width, isSigned);
        auto found = m_bits.find(key);
        if (found != m_bits.end())
        {
            return found->second;
        }
        auto* type = Own<BitsType>();
        type->width = width;
        type->isSigned = isSigned;
        m_bits[key] = type;
        return type;
    }

    const Type* Bool()
    {
        if (!m_bool)
        {
            m_bool = Own<BoolType>();
        }
        return m_bool;
    }

    const Type* InfInt()
    {
        if (!m_infInt)
        {
            m_infInt = Own<InfIntType>();
        }
        return m_infInt;
    }

    const Type* Error()
    {
        if (!m_error)
        {
            m_error = Own<ErrorType>();
        }
        return m_error;
    }

    const Type* String()
    {
        if (!m_string)
        {
            m_string = Own<StringType>();
        }
        return m_string;
    }

    /// A NamedType that refers to `declaration` (a header, struct, enum, extern, parser...).
    const Type* Named(const Declaration& declaration, const std::string& name = "")
    {
        std::string key = name.empty() ? declaration.name : name;
        auto found = m_named.find({&declaration, key});
        if (found != m_named.end())
        {
            return found->second;
        }
        auto* type = Own<NamedType>();
        type->name = key;
        type->resolved = &declaration;
        m_named[{&declaration, key}] = type;
        return type;
    }

    /// Canon, and bit<(expression)> replaced by the plain bit<W> it evaluated to.
    const Type* Norm(const Type* type)
    {
        type = Canon(type);
        const auto* bits = type ? type->As<BitsType>() : nullptr;
        if (bits && bits->widthExpr && bits->width > 0)
        {
            return Bits(bits->width, bits->isSigned);
        }
        return type;
    }

    static const Declaration* NamedDecl(const Type* type)
    {
        const auto* named = type ? type->As<NamedType>() : nullptr;
        return named ? named->resolved : nullptr;
    }

    /// Unknown types (null, unresolved, type parameters) are compatible with anything.
    static bool IsUnknown(const Type* type)
    {
        if (!type || type->Is<DontCareType>() || type->Is<TupleType>())
        {
            return true;
        }
        const auto* named = type->As<NamedType>();
        return named && (!named->resolved || named->resolved->Is<TypeParameter>());
    }

    static bool SameType(const Type* a, const Type* b)
    {
        a = Canon(a);
        b = Canon(b);
        if (IsUnknown(a) || IsUnknown(b))
        {
            return true;
        }
        if (a->kind != b->kind)
        {
            return false;
        }
        if (const auto* bits = a->As<BitsType>())
        {
            const auto* other = b->As<BitsType>();
            return bits->width == other->width && bits->isSigned == other->isSigned;
        }
        if (a->Is<NamedType>())
        {
            return NamedDecl(a) == NamedDecl(b);
        }
        if (const auto* stack = a->As<StackType>())
        {
            const auto* other = b->As<StackType>();
            return stack->count == other->count &&
                   SameType(stack->element.get(), other->element.get());
        }
        return true;
    }

    /// Whether a value of type `from` may be stored in `to` without a cast.
    static bool Assignable(const Type* to, const Type* from)
    {
        to = Canon(to);
        from = Canon(from);
        if (IsUnknown(to) || IsUnknown(from))
        {
            return true;
        }
        if (from->Is<InfIntType>())
        {
            return to->Is<BitsType>() || to->Is<InfIntType>();
        }
        return SameType(to, from);
    }

    /// Explicit casts: between fixed-width integers, `int` to either, bool and bit<1>, and a
    /// serializable enum and integers.
    static bool CanCast(const Type* from, const Type* to)
    {
        from = Canon(from);
        to = Canon(to);
        if (Assignable(to, from))
        {
            return true;
        }
        auto integral = [](const Type* type) {
            if (type->Is<BitsType>() || type->Is<InfIntType>())
            {
                return true;
            }
            const Declaration* decl = NamedDecl(type);
            const auto* enumDecl = decl ? decl->As<EnumDecl>() : nullptr;
            return enumDecl && enumDecl->underlyingType;
        };
        auto isBit1 = [](const Type* type) {
            const auto* bits = type->As<BitsType>();
            return bits && bits->width == 1 && !bits->isSigned;
        };
        if (integral(from) && integral(to))
        {
            return true;
        }
        return (from->Is<BoolType>() && (isBit1(to) || to->Is<InfIntType>())) ||
               (to->Is<BoolType>() && (isBit1(from) || from->Is<InfIntType>()));
    }

    static std::string TypeName(const Type* type)
    {
        type = Canon(type);
        if (!type)
        {
            return "<unknown>";
        }
        if (type->Is<InfIntType>())
        {
            return "int";
        }
        return ToString(*type);
    }

    static bool IsBits(const Type* type) { return type && Canon(type)->Is<BitsType>(); }
    static bool IsBool(const Type* type) { return type && Canon(type)->Is<BoolType>(); }

    /// A generic type named with type arguments takes exactly as many as it has parameters
    /// (register<T, I> of v1model 20200408 is not register<T> of 20180101).
    void CheckTypeArgumentCount(const NamedType& named)
    {
        if (named.typeArgs.empty())
        {
            return;
        }
        const Declaration* decl = named.resolved;
        const PtrList<TypeParameter>* params = nullptr;
        if (const auto* object = decl->As<ExternDecl>())
        {
            params = &object->typeParams;
        }
        else if (const auto* parser = decl->As<ParserTypeDecl>())
        {
            params = &parser->typeParams;
        }
        else if (const auto* control = decl->As<ControlTypeDecl>())
        {
            params = &control->typeParams;
        }
        else if (const auto* package = decl->As<PackageTypeDecl>())
        {
            params = &package->typeParams;
        }
        if (params && params->size() != named.typeArgs.size())
        {
            m_diags.Error(named.location,
                          fmt::format("'{}' takes {} type argument(s), got {}", named.name,
                                      params->size(), named.typeArgs.size()));
        }
    }

    /// Resolves the names in a type as written, and evaluates bit<(e)> widths and stack sizes.
    void ResolveType(Type* type)
    {
        if (!type)
        {
            return;
        }
        if (auto* named = type->As<NamedType>())
        {
            const Candidates* found = Lookup(named->name, named->global);
            if (!found || found->empty())
            {
                m_diags.Error(named->location, "'" + named->name + "' is not declared");
            }
            else
            {
                named->resolved = found->front();
                CheckTypeArgumentCount(*named);
            }
            for (auto& argument : named->typeArgs)
            {
                ResolveType(argument.get());
            }
        }
        else if (auto* bits = type->As<BitsType>())
        {
            if (bits->widthExpr)
            {
                CheckExpression(*bits->widthExpr);
                std::optional<uint64_t> width = EvalConst(*bits->widthExpr);
                if (!width || *width == 0 || *width > kMaxBitWidth)
                {
                    m_diags.Error(bits->widthExpr->location,
                                  "the width of a bit type must be a constant from 1 to " +
                                      std::to_string(kMaxBitWidth));
                }
                else
                {
                    bits->width = static_cast<uint32_t>(*width);
                }
            }
            else if (bits->width > kMaxBitWidth)
            {
                m_diags.Error(bits->location, "the width of a bit type must be a constant "
                                              "from 1 to " + std::to_string(kMaxBitWidth));
            }
        }
        else if (auto* stack = type->As<StackType>())
        {
            ResolveType(stack->element.get());
            if (stack->size)
            {
                CheckExpression(*stack->size);
            }
            if (stack->size && stack->count == 0)
            {
                std::optional<uint64_t> count = EvalConst(*stack->size);
                if (!count || *count == 0)
                {
                    m_diags.Error(stack->size->location,
                                  "the size of a header stack must be a positive constant");
                }
                else
                {
                    stack->count = static_cast<uint32_t>(*count);
                }
            }
        }
        else if (auto* tuple = type->As<TupleType>())
        {
            for (auto& element : tuple->elements)
            {
                ResolveType(element.get());
            }
        }
    }

    /// The value of a compile-time constant expression that fits in 64 bits.
    std::optional<uint64_t> EvalConst(const Expression& expression, int depth = 0) const
    {
        if (depth > 32)
        {
            return std::nullopt;
        }
        if (const auto* literal = expression.As<IntegerLiteral>())
        {
            if (!literal->value.FitsIn64())
            {
                return std::nullopt;
            }
            return literal->value.Low64();
        }
        if (const auto* name = expression.As<NameExpr>())
        {
            const auto* constant = name->resolved ? name->resolved->As<ConstDecl>() : nullptr;
            if (const auto folded = m_constValues.find(constant); folded != m_constValues.end())
            {
                return folded->second;
            }
            if (constant && constant->value)
            {
                return EvalConst(*constant->value, depth + 1);
            }
            return std::nullopt;
        }
        if (const auto* cast = expression.As<CastExpr>())
        {
            return EvalConst(*cast->operand, depth + 1);
        }
        if (const auto* binary = expression.As<BinaryExpr>())
        {
            auto left = EvalConst(*binary->left, depth + 1);
            auto right = EvalConst(*binary->right, depth + 1);
            if (!left || !right)
            {
                return std::nullopt;
            }
            switch (binary->op)
            {
            case BinaryOp::Add:
                return *left + *right;
            case BinaryOp::Sub:
                return *left - *right;
            case BinaryOp::Mul:
                return *left * *right;
            case BinaryOp::Div:
                return *right == 0 ? std::nullopt : std::optional<uint64_t>(*left / *right);
            case BinaryOp::Shl:
                return *right >= 64 ? std::nullopt : std::optional<uint64_t>(*left << *right);
            case BinaryOp::Shr:
                return *right >= 64 ? std::nullopt : std::optional<uint64_t>(*left >> *right);
            default:
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    /// The type of a value declaration (parameter, variable, constant, field, instance).
    const Type* TypeOfDecl(const Declaration& declaration)
    {
        if (const auto* parameter = declaration.As<Parameter>())
        {
            return Norm(parameter->type.get());
        }
        if (const auto* variable = declaration.As<VariableDecl>())
        {
            return Norm(variable->type.get());
        }
        if (const auto* constant = declaration.As<ConstDecl>())
        {
            return Norm(constant->type.get());
        }
        if (const auto* field = declaration.As<StructField>())
        {
            return Norm(field->type.get());
        }
        if (const auto* instance = declaration.As<InstanceDecl>())
        {
            return Norm(instance->type.get());
        }
        auto member = m_memberTypes.find(&declaration);
        return member == m_memberTypes.end() ? nullptr : member->second;
    }

    // --- declarations ----------------------------------------------------------------------

    void CheckParameters(PtrList<Parameter>& parameters)
    {
        for (auto& parameter : parameters)
        {
            ResolveType(parameter->type.get());
            if (parameter->defaultValue)
            {
                CheckExpression(*parameter->defaultValue);
                CheckAssign(parameter->type.get(), *parameter->defaultValue);
            }
            Declare(*parameter);
        }
    }

    void DeclareTypeParameters(PtrList<TypeParameter>& typeParams)
    {
        for (auto& typeParam : typeParams)
        {
            Declare(*typeParam);
        }
    }

    void DeclareMembers(PtrList<EnumMember>& members, const Type* type, bool global)
    {
        for (auto& member : members)
        {
            m_memberTypes[member.get()] = type;
            if (type == Error())
            {
                m_errorMembers[member->name] = member.get();
            }
            else if (global)
            {
                m_matchKinds[member->name] = member.get();
                Declare(*member);
            }
        }
    }

    void CheckDeclaration(Declaration& declaration)
    {
        if (auto* constant = declaration.As<ConstDecl>())
        {
            ResolveType(constant->type.get());
            if (constant->value)
            {
                CheckExpression(*constant->value);
                CheckAssign(constant->type.get(), *constant->value);
                // Folded once here, so that a use of the constant is a lookup: a chain of
                // constants built from the ones before is neither deep nor exponential.
                m_constValues[constant] = EvalConst(*constant->value);
            }
            Declare(declaration);
        }
        else if (auto* variable = declaration.As<VariableDecl>())
        {
            ResolveType(variable->type.get());
            if (variable->initializer)
            {
                CheckExpression(*variable->initializer);
                CheckAssign(variable->type.get(), *variable->initializer);
            }
            Declare(declaration);
        }
        else if (auto* instance = declaration.As<InstanceDecl>())
        {
            ResolveType(instance->type.get());
            CheckArguments(instance->args);
            const Declaration* typeDecl = NamedDecl(instance->type.get());
            if (const auto* externDecl = typeDecl ? typeDecl->As<ExternDecl>() : nullptr)
            {
                Candidates constructors;
                for (const auto& method : externDecl->methods)
                {
                    if (method->isConstructor)
                    {
                        constructors.push_back(method.get());
                    }
                }
                if (!constructors.empty())
                {
                    if (const Declaration* constructor =
                            CheckArity(externDecl->name, constructors, instance->args,
                                       instance->type->location))
                    {
                        CheckArgumentTypes(*constructor, instance->args);
                    }
                }
            }
            else if (const auto* package = typeDecl ? typeDecl->As<PackageTypeDecl>() : nullptr)
            {
                if (CheckArity(package->name, {package}, instance->args,
                               instance->type->location))
                {
                    CheckPackageArguments(*package, instance->args);
                }
            }
            Declare(declaration);
        }
        else if (auto* typeDef = declaration.As<TypedefDecl>())
        {
            ResolveType(typeDef->type.get());
            Declare(declaration);
        }
        else if (auto* structLike = declaration.As<StructLikeDecl>())
        {
            for (auto& field : structLike->fields)
            {
                ResolveType(field->type.get());
            }
            Declare(declaration);
        }
        else if (auto* enumDecl = declaration.As<EnumDecl>())
        {
            ResolveType(enumDecl->underlyingType.get());
            for (auto& member : enumDecl->members)
            {
                if (member->value)
                {
                    CheckExpression(*member->value);
                    if (enumDecl->underlyingType)
                    {
                        CheckAssign(enumDecl->underlyingType.get(), *member->value);
                    }
                }
            }
            DeclareMembers(enumDecl->members, Named(*enumDecl), false);
            Declare(declaration);
        }
        else if (auto* errorDecl = declaration.As<ErrorDecl>())
        {
            DeclareMembers(errorDecl->members, Error(), false);
            if (!Lookup("error", true))
            {
                Declare(declaration);
            }
        }
        else if (auto* matchKind = declaration.As<MatchKindDecl>())
        {
            DeclareMembers(matchKind->members, nullptr, true);
        }
        else if (auto* externDecl = declaration.As<ExternDecl>())
        {
            Declare(declaration);
            ScopeGuard scope(*this);
            DeclareTypeParameters(externDecl->typeParams);
            for (auto& method : externDecl->methods)
            {
                ScopeGuard methodScope(*this);
                DeclareTypeParameters(method->typeParams);
                ResolveType(method->returnType.get());
                CheckParameters(method->params);
            }
        }
        else if (auto* function = declaration.As<FunctionDecl>())
        {
            {
                ScopeGuard scope(*this);
                DeclareTypeParameters(function->typeParams);
                ResolveType(function->returnType.get());
                CheckParameters(function->params);
            }
            Declare(declaration);
        }
        else if (auto* parserType = declaration.As<ParserTypeDecl>())
        {
            CheckTypeDecl(parserType->typeParams, parserType->params);
            Declare(declaration);
        }
        else if (auto* controlType = declaration.As<ControlTypeDecl>())
        {
            CheckTypeDecl(controlType->typeParams, controlType->params);
            Declare(declaration);
        }
        else if (auto* packageType = declaration.As<PackageTypeDecl>())
        {
            CheckTypeDecl(packageType->typeParams, packageType->params);
            Declare(declaration);
        }
        else if (auto* parser = declaration.As<ParserDecl>())
        {
            Declare(declaration);
            CheckParser(*parser);
        }
        else if (auto* control = declaration.As<ControlDecl>())
        {
            Declare(declaration);
            CheckControl(*control);
        }
        else if (auto* action = declaration.As<ActionDecl>())
        {
            Declare(declaration);
            ScopeGuard scope(*this);
            CheckParameters(action->params);
            Context saved = m_context;
            m_context = Context::Action;
            m_action = action;
            if (action->body)
            {
                CheckBlock(*action->body);
            }
            m_action = nullptr;
            m_context = saved;
        }
        else if (auto* table = declaration.As<TableDecl>())
        {
            CheckTable(*table);
            Declare(declaration);
        }
        else
        {
            Declare(declaration);
        }
    }

    /// V1Switch(MyParser(), ...): each argument must be a parser or control whose parameters
    /// match the architecture's declaration, with the package's type parameters (H, M) bound
    /// consistently across the arguments.
    /// The argument for params[i]: the one named after it, or the unnamed one at position i.
    static const Expression* ArgumentFor(const PtrList<Argument>& args,
                                         const PtrList<Parameter>& params, size_t i)
    {
        for (const auto& argument : args)
        {
            if (!argument->name.empty() && argument->name == params[i]->name)
            {
                return argument->value.get();
            }
        }
        return i < args.size() && args[i]->name.empty() ? args[i]->value.get() : nullptr;
    }

    void CheckPackageArguments(const PackageTypeDecl& package, PtrList<Argument>& args)
    {
        std::map<const Declaration*, const Type*> bindings;
        for (size_t i = 0; i < package.params.size(); ++i)
        {
            const Parameter& slot = *package.params[i];
            const Expression* value = ArgumentFor(args, package.params, i);
            const auto* slotType = Canon(slot.type.get()) ? Canon(slot.type.get())->As<NamedType>()
                                                         : nullptr;
            if (!value || !slotType || !slotType->resolved)
            {
                continue;
            }
            const Declaration* expected = slotType->resolved;
            const Declaration* given = NamedDecl(value->type);
            const PtrList<TypeParameter>* expectedTypeParams = nullptr;
            const PtrList<Parameter>* expectedParams = nullptr;
            const PtrList<Parameter>* givenParams = nullptr;
            const char* kind = nullptr;
            if (const auto* parserType = expected->As<ParserTypeDecl>())
            {
                kind = "parser";
                expectedTypeParams = &parserType->typeParams;
                expectedParams = &parserType->params;
                const auto* parser = given ? given->As<ParserDecl>() : nullptr;
                givenParams = parser ? &parser->params : nullptr;
            }
            else if (const auto* controlType = expected->As<ControlTypeDecl>())
            {
                kind = "control";
                expectedTypeParams = &controlType->typeParams;
                expectedParams = &controlType->params;
                const auto* control = given ? given->As<ControlDecl>() : nullptr;
                givenParams = control ? &control->params : nullptr;
            }
            else
            {
                continue;
            }
            if (!givenParams)
            {
                m_diags.Error(value->location, "argument '" + slot.name + "' of '" +
                                                   package.name + "' must be a " + kind +
                                                   " instance");
                continue;
            }
            if (givenParams->size() != expectedParams->size())
            {
                m_diags.Error(value->location,
                              "'" + given->name + "' has " +
                                  Plural(givenParams->size(), "parameter") + ", but '" +
                                  expected->name + "' has " +
                                  std::to_string(expectedParams->size()));
                continue;
            }
            for (size_t j = 0; j < givenParams->size(); ++j)
            {
                const Parameter& mine = *(*givenParams)[j];
                const Parameter& theirs = *(*expectedParams)[j];
                std::string where = "parameter '" + mine.name + "' of '" + given->name + "'";
                if (mine.direction != theirs.direction)
                {
                    m_diags.Error(mine.location,
                                  where + " must be '" + ToString(theirs.direction) +
                                      "' to match '" + expected->name + "'");
                    continue;
                }
                const Type* want = Canon(theirs.type.get());
                // The architecture type's own type parameter -> the package's -> a binding.
                const Declaration* typeParam = NamedDecl(want);
                if (typeParam && typeParam->Is<TypeParameter>())
                {
                    want = nullptr;
                    for (size_t k = 0; k < expectedTypeParams->size(); ++k)
                    {
                        if ((*expectedTypeParams)[k].get() == typeParam &&
                            k < slotType->typeArgs.size())
                        {
                            const Declaration* packageParam =
                                NamedDecl(slotType->typeArgs[k].get());
                            auto bound = bindings.find(packageParam);
                            if (bound == bindings.end())
                            {
                                bindings[packageParam] = Canon(mine.type.get());
                            }
                            else
                            {
                                want = bound->second;
                            }
                        }
                    }
                }
                if (want && !SameType(want, mine.type.get()))
                {
                    m_diags.Error(mine.location, where + " has type " +
                                                     TypeName(mine.type.get()) + ", expected " +
                                                     TypeName(want));
                }
            }
        }
    }

    void CheckTypeDecl(PtrList<TypeParameter>& typeParams, PtrList<Parameter>& params)
    {
        ScopeGuard scope(*this);
        DeclareTypeParameters(typeParams);
        CheckParameters(params);
    }

    void CheckParser(ParserDecl& parser)
    {
        ScopeGuard scope(*this);
        DeclareTypeParameters(parser.typeParams);
        CheckParameters(parser.params);
        CheckParameters(parser.constructorParams);
        Context saved = m_context;
        m_context = Context::Parser;
        for (auto& local : parser.locals)
        {
            CheckDeclaration(*local);
        }
        // States may be named before they are declared.
        m_scopes.emplace_back();
        Declare(AcceptState());
        Declare(RejectState());
        for (auto& state : parser.states)
        {
            Declare(*state);
        }
        for (auto& state : parser.states)
        {
            ScopeGuard stateScope(*this);
            for (auto& statement : state->statements)
            {
                CheckStatement(*statement);
            }
            if (state->transition)
            {
                CheckStatement(*state->transition);
            }
        }
        m_scopes.pop_back();
        m_context = saved;
        CheckParserLoops(parser);
    }

    /// Whether a parser state's statements may consume packet bits (extract, advance, or a
    /// sub-parser's apply).
    static bool Consumes(const Node& node)
    {
        if (const auto* call = node.As<CallExpr>())
        {
            const auto* member = call->callee->As<MemberExpr>();
            if (member && (member->member == "extract" || member->member == "advance" ||
                           member->member == "apply"))
            {
                return true;
            }
        }
        bool found = false;
        ForEachChild(node, [&](const Node& child) { found = found || Consumes(child); });
        return found;
    }

    /// A cycle of unconditional transitions through states none of which consumes packet bits
    /// never ends (p4c rejects it too; the generated parser would spin forever).
    void CheckParserLoops(const ParserDecl& parser)
    {
        std::map<const Declaration*, std::vector<const ParserState*>> next;
        std::vector<const ParserState*> idle;
        for (const auto& state : parser.states)
        {
            bool consumes = false;
            for (const auto& statement : state->statements)
            {
                consumes = consumes || Consumes(*statement);
            }
            if (consumes || !state->transition || !state->transition->target)
            {
                continue;
            }
            idle.push_back(state.get());
            std::vector<const ParserState*>& targets = next[state.get()];
            auto add = [&](const NameExpr* name) {
                if (name && name->resolved)
                {
                    if (const auto* target = name->resolved->As<ParserState>())
                    {
                        targets.push_back(target);
                    }
                }
            };
            // Only unconditional transitions: a loop through a select may end when the values
            // it selects on change (p4c accepts those).
            add(state->transition->target->As<NameExpr>());
        }
        // Depth-first search over the idle states only: a back edge is such a cycle.
        std::map<const ParserState*, int> color; // 0 new, 1 on the path, 2 done
        std::vector<const ParserState*> path;
        std::function<bool(const ParserState*)> visit = [&](const ParserState* state) {
            if (!next.count(state))
            {
                return false; // consumes bits, or ends
            }
            color[state] = 1;
            path.push_back(state);
            for (const ParserState* target : next[state])
            {
                if (color[target] == 1)
                {
                    std::string cycle;
                    auto from = std::find(path.begin(), path.end(), target);
                    for (auto it = from; it != path.end(); ++it)
                    {
                        cycle += (*it)->name + " -> ";
                    }
                    m_diags.Error(target->location,
                                  "parser '" + parser.name + "' loops without extracting: " +
                                      cycle + target->name);
                    return true;
                }
                if (color[target] == 0 && visit(target))
                {
                    return true;
                }
            }
            path.pop_back();
            color[state] = 2;
            return false;
        };
        for (const ParserState* state : idle)
        {
            if (color[state] == 0 && visit(state))
            {
                return;
            }
        }
    }

    void CheckControl(ControlDecl& control)
    {
        ScopeGuard scope(*this);
        DeclareTypeParameters(control.typeParams);
        CheckParameters(control.params);
        CheckParameters(control.constructorParams);
        Context saved = m_context;
        m_context = Context::Control;
        for (auto& local : control.locals)
        {
            CheckDeclaration(*local);
        }
        if (control.apply)
        {
            CheckBlock(*control.apply);
        }
        m_context = saved;
    }

    // --- tables ----------------------------------------------------------------------------

    /// Resolves an action named in a table; null (after an error) when it is not an action.
    const ActionDecl* ResolveActionRef(ActionRef& ref)
    {
        if (!ref.action)
        {
            return nullptr;
        }
        NameExpr& name = *ref.action;
        const Candidates* found = Lookup(name.name, name.global);
        if (!found || found->empty())
        {
            m_diags.Error(name.location, "'" + name.name + "' is not declared");
            return nullptr;
        }
        name.resolved = found->front();
        const auto* action = name.resolved->As<ActionDecl>();
        if (!action)
        {
            m_diags.Error(name.location, "'" + name.name + "' is not an action");
            return nullptr;
        }
        CheckArguments(ref.args);
        return action;
    }

    void CheckTable(TableDecl& table)
    {
        std::vector<const Type*> keyTypes;
        std::vector<const ActionDecl*> actions;
        std::set<const ActionDecl*> defaultOnly;
        std::set<const ActionDecl*> tableOnly;
        for (auto& property : table.properties)
        {
            switch (property->which)
            {
            case TablePropertyKind::Key:
                for (auto& key : property->keys)
                {
                    CheckExpression(*key->expression);
                    keyTypes.push_back(key->expression->type);
                    auto kind = m_matchKinds.find(key->matchKind);
                    if (kind == m_matchKinds.end())
                    {
                        m_diags.Error(key->matchKindLocation,
                                      "'" + key->matchKind + "' is not a match_kind");
                    }
                    else
                    {
                        key->resolvedMatchKind = kind->second;
                    }
                }
                break;
            case TablePropertyKind::Actions:
                for (auto& ref : property->actions)
                {
                    if (const ActionDecl* action = ResolveActionRef(*ref))
                    {
                        actions.push_back(action);
                        if (FindAnnotation(ref->annotations, "defaultonly"))
                        {
                            defaultOnly.insert(action);
                        }
                        if (FindAnnotation(ref->annotations, "tableonly"))
                        {
                            tableOnly.insert(action);
                        }
                    }
                }
                break;
            case TablePropertyKind::DefaultAction:
                if (property->defaultAction)
                {
                    const ActionDecl* action =
                        CheckTableAction(*property->defaultAction, actions, "default action");
                    if (action && tableOnly.count(action))
                    {
                        m_diags.Error(property->defaultAction->action->location,
                                      "'" + action->name + "' is @tableonly in table '" +
                                          table.name + "': it cannot be the default action");
                    }
                }
                break;
            case TablePropertyKind::Entries:
                for (auto& entry : property->entries)
                {
                    if (entry->priority)
                    {
                        CheckExpression(*entry->priority);
                        if (!property->entries.front()->priority)
                        {
                            m_diags.Error(entry->priority->location,
                                          "this entry has a priority but the first entry of "
                                          "table '" + table.name + "' has none: give the "
                                          "first entry one too");
                        }
                    }
                    CheckKeyset(entry->keys, keyTypes, entry->location);
                    if (entry->action)
                    {
                        const ActionDecl* action =
                            CheckTableAction(*entry->action, actions, "action");
                        if (action && defaultOnly.count(action))
                        {
                            m_diags.Error(entry->action->action->location,
                                          "'" + action->name + "' is @defaultonly in table '" +
                                              table.name + "': an entry cannot run it");
                        }
                    }
                }
                break;
            case TablePropertyKind::Value:
                if (property->value)
                {
                    CheckExpression(*property->value);
                }
                break;
            }
        }
    }

    /// The action `ref` runs, or null after an error.
    const ActionDecl* CheckTableAction(ActionRef& ref,
                                       const std::vector<const ActionDecl*>& actions,
                                       const char* what)
    {
        const ActionDecl* action = ResolveActionRef(ref);
        if (!action)
        {
            return nullptr;
        }
        bool listed = false;
        for (const ActionDecl* candidate : actions)
        {
            listed = listed || candidate == action;
        }
        if (!listed)
        {
            m_diags.Error(ref.action->location,
                          std::string(what) + " '" + action->name +
                              "' is not in the table's actions list");
            return nullptr;
        }
        if (ref.hasArgList &&
            CheckArity(action->name, {action}, ref.args, ref.action->location))
        {
            CheckArgumentTypes(*action, ref.args);
        }
        return action;
    }

    /// The keys of a select case or a table entry against the selector/key types.
    void CheckKeyset(PtrList<Expression>& keys,
                     const std::vector<const Type*>& types,
                     const SourceLocation& location)
    {
        for (auto& key : keys)
        {
            CheckExpression(*key);
        }
        bool single = keys.size() == 1 &&
                      (keys[0]->Is<DefaultExpr>() || keys[0]->Is<DontCareExpr>());
        if (single)
        {
            return;
        }
        if (keys.size() != types.size())
        {
            m_diags.Error(keys.empty() ? location : keys[0]->location,
                          "expected " + Plural(types.size(), "key") + ", got " +
                              std::to_string(keys.size()));
            return;
        }
        for (size_t i = 0; i < keys.size(); ++i)
        {
            CheckMatches(types[i], *keys[i]);
        }
    }

    /// A key (value, mask, range) against the type it matches.
    void CheckMatches(const Type* type, Expression& key)
    {
        if (key.Is<DefaultExpr>() || key.Is<DontCareExpr>())
        {
            return;
        }
        if (auto* binary = key.As<BinaryExpr>();
            binary && (binary->op == BinaryOp::Mask || binary->op == BinaryOp::Range))
        {
            Adapt(*binary->left, type);
            Adapt(*binary->right, type);
        }
        Adapt(key, type);
        if (!Assignable(type, key.type))
        {
            m_diags.Error(key.location,
                          "a key of type " + TypeName(key.type) + " cannot match " +
                              TypeName(type));
        }
    }

    // --- statements ------------------------------------------------------------------------

    void CheckBlock(BlockStmt& block)
    {
        ScopeGuard scope(*this);
        for (auto& statement : block.statements)
        {
            CheckStatement(*statement);
        }
    }

    /// Gives an `int`-typed expression (a literal, -1, 2 + 3) the fixed-width type it is used
    /// as, so the back end sees a width on every literal that has one in context.
    void Adapt(Expression& expression, const Type* target)
    {
        const Type* to = Norm(target);
        const Type* from = Canon(expression.type);
        if (!to || !from || !from->Is<InfIntType>() || !to->Is<BitsType>())
        {
            return;
        }
        expression.type = to;
        if (auto* unary = expression.As<UnaryExpr>())
        {
            Adapt(*unary->operand, to);
        }
        else if (auto* binary = expression.As<BinaryExpr>())
        {
            if (binary->op != BinaryOp::Shl && binary->op != BinaryOp::Shr)
            {
                Adapt(*binary->right, to);
            }
            Adapt(*binary->left, to);
        }
        else if (auto* ternary = expression.As<TernaryExpr>())
        {
            Adapt(*ternary->ifTrue, to);
            Adapt(*ternary->ifFalse, to);
        }
    }

    /// `{ a, b }` or `{ f = a, g = b }` initializing a header or struct: the fields, in order
    /// or by name, must take the values.
    void CheckInitializer(const StructLikeDecl& decl, const Type* type, Expression& value)
    {
        const char* kind = decl.Is<HeaderDecl>() ? "header" : "struct";
        if (auto* list = value.As<ListExpr>())
        {
            if (list->elements.size() != decl.fields.size())
            {
                m_diags.Error(list->location,
                              std::string(kind) + " '" + decl.name + "' has " +
                                  Plural(decl.fields.size(), "field") + ", got " +
                                  Plural(list->elements.size(), "value"));
                return;
            }
            for (size_t i = 0; i < decl.fields.size(); ++i)
            {
                CheckAssign(decl.fields[i]->type.get(), *list->elements[i]);
            }
        }
        else if (auto* structExpr = value.As<StructExpr>())
        {
            for (auto& field : structExpr->fields)
            {
                const StructField* declared = decl.FindField(field->name);
                if (!declared)
                {
                    m_diags.Error(field->location, std::string(kind) + " '" + decl.name +
                                                       "' has no field '" + field->name + "'");
                    continue;
                }
                CheckAssign(declared->type.get(), *field->value);
            }
        }
        value.type = type;
    }

    void CheckAssign(const Type* target, Expression& value)
    {
        const Declaration* targetDecl = NamedDecl(Canon(target));
        if (targetDecl && targetDecl->Is<StructLikeDecl>() &&
            (value.Is<ListExpr>() || value.Is<StructExpr>()))
        {
            CheckInitializer(*targetDecl->As<StructLikeDecl>(), Canon(target), value);
            return;
        }
        Adapt(value, target);
        if (!Assignable(target, value.type))
        {
            m_diags.Error(value.location,
                          "cannot assign " + TypeName(value.type) + " to " + TypeName(target) +
                              " without a cast");
        }
    }

    /// Why `target` cannot be written (assigned, or passed to an out/inout parameter), or an
    /// empty string when it can: it must be a variable or an out/inout parameter, or a field,
    /// element or slice of one.
    static std::string WhyNotWritable(const Expression& target)
    {
        const Expression* root = &target;
        while (true)
        {
            if (const auto* member = root->As<MemberExpr>())
            {
                root = member->object.get();
            }
            else if (const auto* index = root->As<IndexExpr>())
            {
                root = index->object.get();
            }
            else if (const auto* slice = root->As<SliceExpr>())
            {
                root = slice->object.get();
            }
            else
            {
                break;
            }
        }
        const auto* name = root->As<NameExpr>();
        if (!name)
        {
            return "it is not a variable";
        }
        if (!name->resolved)
        {
            return ""; // already reported
        }
        if (name->resolved->Is<ConstDecl>())
        {
            return "'" + name->name + "' is a constant";
        }
        if (const auto* parameter = name->resolved->As<Parameter>())
        {
            if (parameter->direction == Direction::In)
            {
                return "'" + name->name + "' is an 'in' parameter";
            }
            if (parameter->direction == Direction::None)
            {
                return "'" + name->name + "' is a directionless parameter";
            }
            return "";
        }
        if (name->resolved->Is<VariableDecl>())
        {
            return "";
        }
        return "'" + name->name + "' is not a variable";
    }

    void CheckWritable(const Expression& target)
    {
        std::string why = WhyNotWritable(target);
        if (!why.empty())
        {
            m_diags.Error(target.location, "cannot assign to " + ToString(target) + ": " + why);
        }
    }

    void CheckStatement(Statement& statement)
    {
        if (auto* block = statement.As<BlockStmt>())
        {
            CheckBlock(*block);
        }
        else if (auto* assign = statement.As<AssignStmt>())
        {
            CheckExpression(*assign->left);
            CheckExpression(*assign->right);
            CheckWritable(*assign->left);
            CheckAssign(assign->left->type, *assign->right);
        }
        else if (auto* call = statement.As<CallStmt>())
        {
            CheckExpression(*call->call);
        }
        else if (auto* ifStmt = statement.As<IfStmt>())
        {
            CheckExpression(*ifStmt->condition);
            const Type* type = ifStmt->condition->type;
            if (type && !IsUnknown(Canon(type)) && !IsBool(type))
            {
                m_diags.Error(ifStmt->condition->location,
                              "the condition of an if statement must be bool, not " +
                                  TypeName(type));
            }
            CheckStatement(*ifStmt->thenBranch);
            if (ifStmt->elseBranch)
            {
                CheckStatement(*ifStmt->elseBranch);
            }
        }
        else if (auto* switchStmt = statement.As<SwitchStmt>())
        {
            CheckSwitch(*switchStmt);
        }
        else if (statement.Is<ExitStmt>())
        {
            if (m_context == Context::Parser)
            {
                m_diags.Error(statement.location, "'exit' is not allowed in a parser");
            }
        }
        else if (auto* ret = statement.As<ReturnStmt>())
        {
            if (m_context == Context::Parser)
            {
                m_diags.Error(statement.location, "'return' is not allowed in a parser");
            }
            if (ret->value)
            {
                CheckExpression(*ret->value);
                m_diags.Error(ret->value->location,
                              "an action or control cannot return a value");
            }
        }
        else if (auto* declStmt = statement.As<DeclStmt>())
        {
            CheckDeclaration(*declStmt->declaration);
        }
        else if (auto* transition = statement.As<TransitionStmt>())
        {
            if (!transition->target)
            {
                return;
            }
            if (auto* name = transition->target->As<NameExpr>())
            {
                ResolveState(name);
            }
            else
            {
                CheckExpression(*transition->target);
            }
        }
    }

    void ResolveState(NameExpr* state)
    {
        if (!state)
        {
            return;
        }
        NameExpr& name = *state;
        const Candidates* found = Lookup(name.name, name.global);
        if (!found || found->empty())
        {
            m_diags.Error(name.location, "'" + name.name + "' is not declared");
            return;
        }
        name.resolved = found->front();
        if (!name.resolved->Is<ParserState>())
        {
            m_diags.Error(name.location, "'" + name.name + "' is not a parser state");
        }
    }

    static bool TableHasAction(const TableDecl& table, const Declaration& action)
    {
        const TableProperty* actions = table.Actions();
        if (!actions)
        {
            return false;
        }
        for (const auto& ref : actions->actions)
        {
            if (ref->action && ref->action->resolved == &action)
            {
                return true;
            }
        }
        return false;
    }

    void CheckSwitch(SwitchStmt& switchStmt)
    {
        CheckExpression(*switchStmt.expression);
        const TableDecl* table = nullptr;
        if (const auto* member = switchStmt.expression->As<MemberExpr>())
        {
            const Declaration* object = NamedDecl(member->object->type);
            if (member->member == "action_run" && object)
            {
                table = object->As<TableDecl>();
            }
        }
        const Expression* defaultLabel = nullptr;
        std::set<const Declaration*> actionLabels;
        for (auto& switchCase : switchStmt.cases)
        {
            Expression& label = *switchCase->label;
            if (defaultLabel)
            {
                m_diags.Error(label.location, label.Is<DefaultExpr>()
                                                  ? "a switch has at most one 'default' label"
                                                  : "'default' must be the last label");
            }
            if (label.Is<DefaultExpr>())
            {
                defaultLabel = &label;
            }
            else if (table && label.Is<NameExpr>())
            {
                auto& name = *label.As<NameExpr>();
                const Candidates* found = Lookup(name.name, name.global);
                if (!found || found->empty())
                {
                    m_diags.Error(name.location, "'" + name.name + "' is not declared");
                }
                else
                {
                    name.resolved = found->front();
                    if (!name.resolved->Is<ActionDecl>())
                    {
                        m_diags.Error(name.location, "'" + name.name + "' is not an action");
                    }
                    else if (!TableHasAction(*table, *name.resolved))
                    {
                        m_diags.Error(name.location, "'" + name.name +
                                                         "' is not an action of table '" +
                                                         table->name + "'");
                    }
                    else if (!actionLabels.insert(name.resolved).second)
                    {
                        m_diags.Error(name.location,
                                      "'" + name.name + "' is already a label of this switch");
                    }
                }
            }
            else
            {
                CheckExpression(label);
                CheckMatches(switchStmt.expression->type, label);
            }
            if (switchCase->body)
            {
                CheckBlock(*switchCase->body);
            }
        }
    }

    // --- expressions -----------------------------------------------------------------------

    void CheckArguments(PtrList<Argument>& args)
    {
        for (auto& argument : args)
        {
            if (argument->value)
            {
                CheckExpression(*argument->value);
            }
        }
    }

    static const PtrList<Parameter>* ParamsOf(const Declaration& declaration)
    {
        if (const auto* action = declaration.As<ActionDecl>())
        {
            return &action->params;
        }
        if (const auto* method = declaration.As<MethodDecl>())
        {
            return &method->params;
        }
        if (const auto* function = declaration.As<FunctionDecl>())
        {
            return &function->params;
        }
        if (const auto* package = declaration.As<PackageTypeDecl>())
        {
            return &package->params;
        }
        if (const auto* parser = declaration.As<ParserDecl>())
        {
            return &parser->constructorParams;
        }
        if (const auto* control = declaration.As<ControlDecl>())
        {
            return &control->constructorParams;
        }
        return nullptr;
    }

    /// Picks the candidate whose parameter count fits the arguments; reports an error and
    /// returns null when none does.
    const Declaration* CheckArity(const std::string& name,
                                  const Candidates& candidates,
                                  const PtrList<Argument>& args,
                                  const SourceLocation& location)
    {
        size_t minCount = 0;
        size_t maxCount = 0;
        bool first = true;
        for (const Declaration* candidate : candidates)
        {
            const PtrList<Parameter>* params = ParamsOf(*candidate);
            if (!params)
            {
                return candidate;
            }
            size_t required = 0;
            for (const auto& parameter : *params)
            {
                required += parameter->defaultValue ? 0 : 1;
            }
            if (args.size() >= required && args.size() <= params->size())
            {
                return candidate;
            }
            if (first)
            {
                minCount = required;
                maxCount = params->size();
                first = false;
            }
        }
        if (first)
        {
            return nullptr;
        }
        std::string expects = minCount == maxCount
                                  ? Plural(maxCount, "argument")
                                  : std::to_string(minCount) + " to " +
                                        Plural(maxCount, "argument");
        m_diags.Error(location, "'" + name + "' expects " + expects + ", got " +
                                    std::to_string(args.size()));
        return nullptr;
    }

    /// Argument types against the parameters of the chosen callee (those that mention no type
    /// parameter).
    void CheckArgumentTypes(const Declaration& callee, PtrList<Argument>& args)
    {
        const PtrList<Parameter>* params = ParamsOf(callee);
        if (!params)
        {
            return;
        }
        for (size_t i = 0; i < args.size() && i < params->size(); ++i)
        {
            const Parameter* parameter = (*params)[i].get();
            if (!args[i]->name.empty())
            {
                parameter = nullptr;
                for (const auto& candidate : *params)
                {
                    if (candidate->name == args[i]->name)
                    {
                        parameter = candidate.get();
                    }
                }
            }
            Expression* value = args[i]->value.get();
            if (!parameter || !value || value->Is<DontCareExpr>())
            {
                continue;
            }
            if (parameter->direction == Direction::Out ||
                parameter->direction == Direction::InOut)
            {
                std::string why = WhyNotWritable(*value);
                if (!why.empty())
                {
                    m_diags.Error(value->location,
                                  "the argument for " + std::string(ToString(parameter->direction)) +
                                      " parameter '" + parameter->name + "' of '" +
                                      callee.name + "' must be writable: " + why);
                    continue;
                }
            }
            const Type* type = Canon(parameter->type.get());
            Adapt(*value, type);
            if (!Assignable(type, value->type))
            {
                m_diags.Error(value->location,
                              "argument '" + parameter->name + "' of '" + callee.name +
                                  "' has type " + TypeName(value->type) + ", expected " +
                                  TypeName(type));
            }
        }
    }

    void CheckExpression(Expression& expression)
    {
        if (auto* literal = expression.As<IntegerLiteral>())
        {
            literal->type = literal->width ? Bits(*literal->width, literal->isSigned) : InfInt();
        }
        else if (expression.Is<BoolLiteral>())
        {
            expression.type = Bool();
        }
        else if (expression.Is<StringLiteral>())
        {
            expression.type = String();
        }
        else if (auto* name = expression.As<NameExpr>())
        {
            CheckName(*name);
        }
        else if (auto* member = expression.As<MemberExpr>())
        {
            CheckMember(*member);
        }
        else if (auto* index = expression.As<IndexExpr>())
        {
            CheckExpression(*index->object);
            CheckExpression(*index->index);
            const Type* objectType = Canon(index->object->type);
            if (const auto* stack = objectType ? objectType->As<StackType>() : nullptr)
            {
                index->type = Norm(stack->element.get());
                std::optional<uint64_t> value = EvalConst(*index->index);
                if (value && stack->count > 0 && *value >= stack->count)
                {
                    m_diags.Error(index->index->location,
                                  "index " + std::to_string(*value) + " is out of range for " +
                                      TypeName(objectType));
                }
            }
            else if (objectType && !IsUnknown(objectType))
            {
                m_diags.Error(index->location,
                              "cannot index a value of type " + TypeName(objectType));
            }
        }
        else if (auto* slice = expression.As<SliceExpr>())
        {
            CheckSlice(*slice);
        }
        else if (auto* unary = expression.As<UnaryExpr>())
        {
            CheckExpression(*unary->operand);
            const Type* type = unary->operand->type;
            if (unary->op == UnaryOp::Not)
            {
                if (type && !IsUnknown(Canon(type)) && !IsBool(type))
                {
                    m_diags.Error(unary->location, "'!' needs a bool operand, not " +
                                                       TypeName(type));
                }
                unary->type = Bool();
            }
            else
            {
                unary->type = Canon(type);
            }
        }
        else if (auto* binary = expression.As<BinaryExpr>())
        {
            CheckBinary(*binary);
        }
        else if (auto* ternary = expression.As<TernaryExpr>())
        {
            CheckExpression(*ternary->condition);
            CheckExpression(*ternary->ifTrue);
            CheckExpression(*ternary->ifFalse);
            const Type* condition = ternary->condition->type;
            if (condition && !IsUnknown(Canon(condition)) && !IsBool(condition))
            {
                m_diags.Error(ternary->condition->location,
                              "the condition of '?:' must be bool, not " + TypeName(condition));
            }
            ternary->type = Unify(*ternary->ifTrue, *ternary->ifFalse, ternary->location);
        }
        else if (auto* cast = expression.As<CastExpr>())
        {
            ResolveType(cast->target.get());
            CheckExpression(*cast->operand);
            cast->type = Norm(cast->target.get());
            if (!CanCast(cast->operand->type, cast->type))
            {
                m_diags.Error(cast->location, "cannot cast " + TypeName(cast->operand->type) +
                                                  " to " + TypeName(cast->type));
            }
        }
        else if (auto* call = expression.As<CallExpr>())
        {
            CheckCall(*call);
        }
        else if (auto* list = expression.As<ListExpr>())
        {
            for (auto& element : list->elements)
            {
                CheckExpression(*element);
            }
        }
        else if (auto* structExpr = expression.As<StructExpr>())
        {
            for (auto& field : structExpr->fields)
            {
                CheckExpression(*field->value);
            }
        }
        else if (auto* select = expression.As<SelectExpr>())
        {
            std::vector<const Type*> types;
            for (auto& selector : select->selectors)
            {
                CheckExpression(*selector);
                types.push_back(selector->type);
            }
            for (auto& selectCase : select->cases)
            {
                std::vector<Expression*> keys;
                // A single tuple key `(a, b)` is a ListExpr: match its elements.
                if (selectCase->keys.size() == 1 && types.size() > 1)
                {
                    if (auto* tuple = selectCase->keys[0]->As<ListExpr>())
                    {
                        CheckExpression(*tuple);
                        CheckListKeys(tuple->elements, types, tuple->location);
                        ResolveState(selectCase->state.get());
                        continue;
                    }
                }
                CheckKeyset(selectCase->keys, types, selectCase->location);
                ResolveState(selectCase->state.get());
            }
        }
    }

    void CheckListKeys(PtrList<Expression>& keys,
                       const std::vector<const Type*>& types,
                       const SourceLocation& location)
    {
        if (keys.size() != types.size())
        {
            m_diags.Error(location, "expected " + Plural(types.size(), "key") + ", got " +
                                        std::to_string(keys.size()));
            return;
        }
        for (size_t i = 0; i < keys.size(); ++i)
        {
            CheckMatches(types[i], *keys[i]);
        }
    }

    void CheckName(NameExpr& name)
    {
        const Candidates* found = Lookup(name.name, name.global);
        if (!found || found->empty())
        {
            m_diags.Error(name.location, "'" + name.name + "' is not declared");
            return;
        }
        name.resolved = found->front();
        name.type = TypeOfDecl(*name.resolved);
    }

    const Type* FieldType(const StructLikeDecl& decl, MemberExpr& member)
    {
        const StructField* field = decl.FindField(member.member);
        if (!field)
        {
            return nullptr;
        }
        member.resolved = field;
        return Norm(field->type.get());
    }

    void CheckMember(MemberExpr& member)
    {
        CheckExpression(*member.object);
        const Declaration* objectDecl = nullptr;
        if (const auto* name = member.object->As<NameExpr>())
        {
            objectDecl = name->resolved;
        }
        // Type names used as values: Enum.Member, error.Member.
        if (objectDecl && objectDecl->Is<EnumDecl>())
        {
            for (const auto& enumMember : objectDecl->As<EnumDecl>()->members)
            {
                if (enumMember->name == member.member)
                {
                    member.resolved = enumMember.get();
                    member.type = Named(*objectDecl);
                    return;
                }
            }
            m_diags.Error(member.location, "enum '" + objectDecl->name + "' has no member '" +
                                               member.member + "'");
            return;
        }
        if (objectDecl && objectDecl->Is<ErrorDecl>())
        {
            auto found = m_errorMembers.find(member.member);
            if (found == m_errorMembers.end())
            {
                m_diags.Error(member.location, "'error." + member.member + "' is not declared");
                return;
            }
            member.resolved = found->second;
            member.type = Error();
            return;
        }
        const Type* objectType = Canon(member.object->type);
        if (!objectType || IsUnknown(objectType))
        {
            return;
        }
        if (const auto* stack = objectType->As<StackType>())
        {
            if (member.member == "next" || member.member == "last")
            {
                member.type = Norm(stack->element.get());
            }
            else if (member.member == "lastIndex" || member.member == "size" ||
                     member.member == "nextIndex")
            {
                member.type = Bits(32, false);
            }
            else if (member.member != "push_front" && member.member != "pop_front")
            {
                m_diags.Error(member.location, "a header stack has no member '" +
                                                   member.member + "'");
            }
            return;
        }
        const Declaration* typeDecl = NamedDecl(objectType);
        if (!typeDecl)
        {
            m_diags.Error(member.location,
                          "a value of type " + TypeName(objectType) + " has no member '" +
                              member.member + "'");
            return;
        }
        if (const auto* header = typeDecl->As<HeaderDecl>())
        {
            if (member.member == "isValid" || member.member == "setValid" ||
                member.member == "setInvalid")
            {
                return; // a method; CheckCall types the call
            }
            member.type = FieldType(*header, member);
            if (!member.resolved)
            {
                m_diags.Error(member.location, "header '" + header->name + "' has no field '" +
                                                   member.member + "'");
            }
            return;
        }
        if (const auto* structDecl = typeDecl->As<StructDecl>())
        {
            member.type = FieldType(*structDecl, member);
            if (!member.resolved)
            {
                m_diags.Error(member.location, "struct '" + structDecl->name +
                                                   "' has no field '" + member.member + "'");
            }
            return;
        }
        if (const auto* externDecl = typeDecl->As<ExternDecl>())
        {
            for (const auto& method : externDecl->methods)
            {
                if (!method->isConstructor && method->name == member.member)
                {
                    member.resolved = method.get();
                    return;
                }
            }
            m_diags.Error(member.location, "extern '" + externDecl->name + "' has no method '" +
                                               member.member + "'");
            return;
        }
        if (typeDecl->Is<TableDecl>())
        {
            // The result of t.apply().
            if (member.member == "hit" || member.member == "miss")
            {
                member.type = Bool();
            }
            else if (member.member != "action_run")
            {
                m_diags.Error(member.location, "a table's apply() result has no member '" +
                                                   member.member + "'");
            }
        }
    }

    void CheckCall(CallExpr& call)
    {
        for (auto& typeArg : call.typeArgs)
        {
            ResolveType(typeArg.get());
        }
        CheckArguments(call.args);
        Expression& callee = *call.callee;
        if (auto* name = callee.As<NameExpr>())
        {
            const Candidates* found = Lookup(name->name, name->global);
            if (!found || found->empty())
            {
                m_diags.Error(name->location, "'" + name->name + "' is not declared");
                return;
            }
            name->resolved = found->front();
            const Declaration* chosen = CheckArity(name->name, *found, call.args,
                                                   call.location);
            if (!chosen)
            {
                return;
            }
            name->resolved = chosen;
            if (chosen->Is<ParserDecl>() || chosen->Is<ControlDecl>())
            {
                call.type = Named(*chosen); // a constructor call: MyParser()
                return;
            }
            if (chosen->Is<ActionDecl>() && m_context == Context::Parser)
            {
                m_diags.Error(call.location, "an action cannot be called from a parser");
            }
            if (chosen == m_action)
            {
                m_diags.Error(call.location, "action '" + m_action->name +
                                                 "' calls itself; P4 does not allow recursion");
            }
            CheckArgumentTypes(*chosen, call.args);
            if (const auto* function = chosen->As<FunctionDecl>())
            {
                call.type = ReturnType(function->returnType.get(), function->typeParams, call);
            }
            return;
        }
        auto* member = callee.As<MemberExpr>();
        if (!member)
        {
            CheckExpression(callee);
            m_diags.Error(call.location, "this expression cannot be called");
            return;
        }
        CheckExpression(*member);
        const Type* objectType = Canon(member->object->type);
        const Declaration* objectDecl = nullptr;
        if (const auto* objectName = member->object->As<NameExpr>())
        {
            objectDecl = objectName->resolved;
        }
        if (objectDecl && (objectDecl->Is<TableDecl>() || objectDecl->Is<ControlDecl>() ||
                           objectDecl->Is<ParserDecl>()) &&
            member->member == "apply")
        {
            if (const auto* table = objectDecl->As<TableDecl>())
            {
                if (!call.args.empty())
                {
                    m_diags.Error(call.location, "'apply' of a table takes no arguments");
                }
                call.type = Named(*table, "apply_result");
            }
            return;
        }
        if (!objectType || IsUnknown(objectType))
        {
            return;
        }
        const Declaration* typeDecl = NamedDecl(objectType);
        if (typeDecl && typeDecl->Is<HeaderDecl>())
        {
            const std::string& method = member->member;
            if (!call.args.empty())
            {
                m_diags.Error(call.location, "'" + method + "' expects 0 arguments, got " +
                                                 std::to_string(call.args.size()));
            }
            call.type = method == "isValid" ? Bool() : nullptr;
            return;
        }
        if (objectType->Is<StackType>())
        {
            return; // push_front / pop_front
        }
        if (const auto* externDecl = typeDecl ? typeDecl->As<ExternDecl>() : nullptr)
        {
            Candidates methods;
            for (const auto& method : externDecl->methods)
            {
                if (!method->isConstructor && method->name == member->member)
                {
                    methods.push_back(method.get());
                }
            }
            if (methods.empty())
            {
                return; // reported by CheckMember
            }
            const Declaration* chosen = CheckArity(member->member, methods, call.args,
                                                   call.location);
            if (!chosen)
            {
                return;
            }
            member->resolved = chosen;
            const auto* method = chosen->As<MethodDecl>();
            // Parameters typed by a type parameter (register<T>'s T) accept anything.
            CheckArgumentTypes(*chosen, call.args);
            call.type = ReturnType(method->returnType.get(), method->typeParams, call);
            if (!externDecl->typeParams.empty() && NamedDecl(call.type) &&
                NamedDecl(call.type)->Is<TypeParameter>())
            {
                call.type = nullptr;
            }
        }
    }

    /// A callee's return type; a generic return type T is the written type argument, if any.
    const Type* ReturnType(const Type* returnType,
                           const PtrList<TypeParameter>& typeParams,
                           const CallExpr& call)
    {
        const Type* type = Canon(returnType);
        if (!type || type->Is<VoidType>())
        {
            return nullptr;
        }
        const Declaration* decl = NamedDecl(type);
        if (decl && decl->Is<TypeParameter>())
        {
            for (size_t i = 0; i < typeParams.size() && i < call.typeArgs.size(); ++i)
            {
                if (typeParams[i].get() == decl)
                {
                    return Norm(call.typeArgs[i].get());
                }
            }
            return nullptr;
        }
        return Norm(type);
    }

    void CheckSlice(SliceExpr& slice)
    {
        CheckExpression(*slice.object);
        CheckExpression(*slice.high);
        CheckExpression(*slice.low);
        const Type* objectType = Canon(slice.object->type);
        std::optional<uint64_t> high = EvalConst(*slice.high);
        std::optional<uint64_t> low = EvalConst(*slice.low);
        if (!high || !low)
        {
            m_diags.Error(slice.location, "the bounds of a slice must be constants");
            return;
        }
        if (!objectType || IsUnknown(objectType))
        {
            return;
        }
        const auto* bits = objectType->As<BitsType>();
        if (!bits)
        {
            m_diags.Error(slice.location, "cannot slice a value of type " + TypeName(objectType));
            return;
        }
        if (*high < *low || *high >= bits->width)
        {
            m_diags.Error(slice.location, "slice [" + std::to_string(*high) + ":" +
                                              std::to_string(*low) + "] is out of range for " +
                                              TypeName(objectType));
            return;
        }
        slice.type = Bits(static_cast<uint32_t>(*high - *low + 1), false);
    }

    /// The common type of two operands: equal types, or an `int` adapting to the other side.
    /// Reports a mismatch at `location` and returns null.
    const Type* Unify(Expression& left, Expression& right, const SourceLocation& location)
    {
        const Type* a = Canon(left.type);
        const Type* b = Canon(right.type);
        if (IsUnknown(a))
        {
            return IsUnknown(b) ? nullptr : b;
        }
        if (IsUnknown(b))
        {
            return a;
        }
        if (a->Is<InfIntType>() && b->Is<BitsType>())
        {
            left.type = b;
            return b;
        }
        if (b->Is<InfIntType>() && a->Is<BitsType>())
        {
            right.type = a;
            return a;
        }
        if (!SameType(a, b))
        {
            m_diags.Error(location, "operands have different types: " + TypeName(a) + " and " +
                                        TypeName(b));
            return nullptr;
        }
        return a;
    }

    void CheckBinary(BinaryExpr& binary)
    {
        CheckExpression(*binary.left);
        CheckExpression(*binary.right);
        const Type* left = Canon(binary.left->type);
        const Type* right = Canon(binary.right->type);
        switch (binary.op)
        {
        case BinaryOp::And:
        case BinaryOp::Or:
            for (const Expression* operand : {binary.left.get(), binary.right.get()})
            {
                const Type* type = Canon(operand->type);
                if (type && !IsUnknown(type) && !type->Is<BoolType>())
                {
                    m_diags.Error(operand->location, std::string("'") + ToString(binary.op) +
                                                       "' needs bool operands, not " +
                                                       TypeName(type));
                    break;
                }
            }
            binary.type = Bool();
            return;
        case BinaryOp::Shl:
        case BinaryOp::Shr:
            if (right && !IsUnknown(right) && !right->Is<InfIntType>() &&
                !(right->Is<BitsType>() && !right->As<BitsType>()->isSigned))
            {
                m_diags.Error(binary.right->location,
                              "a shift amount must be unsigned, not " + TypeName(right));
            }
            else if (left && left->Is<InfIntType>() && !EvalConst(*binary.right))
            {
                m_diags.Error(binary.location,
                              "shifting an int (a constant with no width) by an amount known "
                              "only at run time: give the constant a width, e.g. 8w1");
            }
            binary.type = left;
            return;
        case BinaryOp::Concat:
        {
            const auto* a = left ? left->As<BitsType>() : nullptr;
            const auto* b = right ? right->As<BitsType>() : nullptr;
            if (a && b)
            {
                binary.type = Bits(a->width + b->width, a->isSigned);
            }
            else if ((left && !IsUnknown(left) && !a) || (right && !IsUnknown(right) && !b))
            {
                m_diags.Error(binary.location, "'++' needs operands of fixed width, not " +
                                                   TypeName(a ? right : left));
            }
            return;
        }
        default:
            break;
        }
        const Type* common = Unify(*binary.left, *binary.right, binary.location);
        if (IsComparison(binary.op))
        {
            binary.type = Bool();
        }
        else
        {
            binary.type = common;
        }
    }

    Program& m_program;
    Diagnostics& m_diags;
    std::vector<std::map<std::string, Candidates>> m_scopes;
    Context m_context = Context::None;
    std::map<std::string, const EnumMember*> m_errorMembers;
    std::map<std::string, const EnumMember*> m_matchKinds;
    std::map<const Declaration*, const Type*> m_memberTypes;
    /// Each constant's folded value (nullopt: not a 64-bit compile-time constant).
    std::map<const ConstDecl*, std::optional<uint64_t>> m_constValues;
    /// The action whose body is being checked, if any.
    const ActionDecl* m_action = nullptr;
    std::map<std::pair<uint32_t, bool>, const Type*> m_bits;
    std::map<std::pair<const Declaration*, std::string>, const Type*> m_named;
    const Type* m_bool = nullptr;
    const Type* m_infInt = nullptr;
    const Type* m_error = nullptr;
    const Type* m_string = nullptr;
};

} // namespace

bool
CheckProgram(Program& program, Diagnostics& diags)
{
    Checker checker(program, diags);
    return checker.Run();
}

bool
CheckHasMain(const Program& program, const std::string& path, Diagnostics& diags)
{
    for (const auto& declaration : program.declarations)
    {
        if (!declaration->IsSystem() && declaration->Is<InstanceDecl>() &&
            declaration->name == "main")
        {
            return true;
        }
    }
    SourceLocation start;
    start.file = program.sources->Get(path);
    start.line = 1;
    start.column = 1;
    diags.Error(start, "the program instantiates no package 'main' (e.g. " +
                           Architectures().front()->exampleMain + "), so it has nothing to run");
    return false;
}

} // namespace incsim::p4
