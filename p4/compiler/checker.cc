// The semantic checker: name resolution, expression typing and the common type errors.
// See checker.h for what it fills in.

#include "p4/compiler/checker.h"

#include "p4/compiler/architecture.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/lexer.h"
#include "p4/compiler/midend-constants.h"
#include "p4/runtime/bits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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
        Function,
    };

    // --- scopes ----------------------------------------------------------------------------

    void Declare(const Declaration& declaration)
    {
        if (declaration.Is<VariableDecl>() || declaration.Is<ConstDecl>() ||
            declaration.Is<InstanceDecl>())
        {
            CheckShadowsParameter(declaration);
        }
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

    /// A local declaration may not hide a parameter of the block it is in (p4c: "declaration
    /// of 'h' shadows a parameter 'h'"; `Headers h = h;` would read itself).
    void CheckShadowsParameter(const Declaration& declaration)
    {
        for (size_t i = m_scopes.size(); i-- > 1;)
        {
            auto found = m_scopes[i].find(declaration.name);
            if (found == m_scopes[i].end() || found->second.empty())
            {
                continue;
            }
            const Declaration& previous = *found->second.front();
            if (previous.Is<Parameter>() && i + 1 < m_scopes.size())
            {
                m_diags.Error(declaration.location, "the declaration of '" + declaration.name +
                                                        "' hides the parameter '" +
                                                        previous.name + "'");
                m_diags.Note(previous.location, "the parameter is declared here");
            }
            return;
        }
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
        if (const auto* varbit = a->As<VarbitType>())
        {
            return varbit->width == b->As<VarbitType>()->width;
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
        if (from && from->Is<TupleType>() && to && !IsUnknown(to))
        {
            return false; // a tuple is not a struct or header (p4c has no implicit cast)
        }
        if (IsUnknown(to) || IsUnknown(from))
        {
            return true;
        }
        if (from->Is<InfIntType>())
        {
            return to->Is<BitsType>() || to->Is<InfIntType>();
        }
        if (const Type* underlying = EnumUnderlying(from); underlying && to->Is<BitsType>())
        {
            // A serializable enum's value converts implicitly to its underlying type (the
            // P4_16 spec's implicit casts, as p4c).
            return SameType(to, underlying);
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
        if (NewTypeDecl(from) || NewTypeDecl(to))
        {
            // A `type` converts to and from what it is defined as.
            return CanCast(Representation(from), Representation(to));
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

    /// The `type` declaration `type` names, if it names one.
    static const TypedefDecl* NewTypeDecl(const Type* type)
    {
        const Declaration* decl = NamedDecl(type);
        const auto* typeDef = decl ? decl->As<TypedefDecl>() : nullptr;
        return typeDef && typeDef->isNewType ? typeDef : nullptr;
    }

    /// The underlying type of a serializable enum (`enum bit<8> E`), else nullptr.
    static const Type* EnumUnderlying(const Type* type)
    {
        const Declaration* decl = NamedDecl(type);
        const auto* enumDecl = decl ? decl->As<EnumDecl>() : nullptr;
        return enumDecl && enumDecl->underlyingType ? Canon(enumDecl->underlyingType.get())
                                                    : nullptr;
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

    /// Whether arithmetic, bitwise and ordering operators may take a `type` value: not a
    /// varbit, bool, string, error, header, struct or stack (unknown types pass).
    static bool IsArithmetic(const Type* type)
    {
        type = Canon(type);
        if (!type || IsUnknown(type))
        {
            return true;
        }
        const Declaration* decl = NamedDecl(type);
        return !type->Is<VarbitType>() && !type->Is<BoolType>() && !type->Is<StringType>() &&
               !type->Is<ErrorType>() && !type->Is<StackType>() &&
               !(decl && decl->Is<StructLikeDecl>());
    }
    static bool IsBool(const Type* type) { return type && Canon(type)->Is<BoolType>(); }

    /// A generic type named with type arguments takes exactly as many as it has parameters
    /// (register<T, I> of v1model 20200408 is not register<T> of 20180101).
    void CheckTypeArgumentCount(const NamedType& named)
    {
        const Declaration* decl = named.resolved;
        const auto* structLike = decl->As<StructLikeDecl>();
        if (named.typeArgs.empty())
        {
            if (structLike && !structLike->typeParams.empty())
            {
                m_diags.Error(named.location, "'" + named.name + "' is generic: name it with " +
                                                  "its type arguments (" + named.name + "<...>)");
            }
            return;
        }
        for (const auto& argument : named.typeArgs)
        {
            // p4c: a generic type instantiated with itself does not terminate.
            const auto* inner = Canon(argument.get()) ? Canon(argument.get())->As<NamedType>()
                                                      : nullptr;
            if (inner && inner->resolved == decl)
            {
                m_diags.Error(argument->location, "'" + named.name + "' cannot be its own type "
                                                  "argument");
            }
        }
        const PtrList<TypeParameter>* params = nullptr;
        if (structLike)
        {
            params = &structLike->typeParams;
        }
        else if (const auto* object = decl->As<ExternDecl>())
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
            for (auto& argument : named->typeArgs)
            {
                ResolveType(argument.get());
            }
            if (found && !found->empty())
            {
                named->resolved = found->front();
                CheckTypeArgumentCount(*named);
                CheckHeaderTypeArguments(*named);
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
        else if (auto* varbit = type->As<VarbitType>())
        {
            std::optional<uint64_t> width = varbit->width;
            if (varbit->widthExpr)
            {
                CheckExpression(*varbit->widthExpr);
                width = EvalConst(*varbit->widthExpr);
            }
            if (!width || *width == 0 || *width > kMaxBitWidth)
            {
                m_diags.Error(varbit->location, "the width of a varbit type must be a constant "
                                                "from 1 to " + std::to_string(kMaxBitWidth));
            }
            else
            {
                varbit->width = static_cast<uint32_t>(*width);
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
                const Declaration* decl = NamedDecl(Canon(element.get()));
                if (decl && (IsParserOrControl(Canon(element.get())) ||
                             decl->Is<ExternDecl>() || decl->Is<PackageTypeDecl>()))
                {
                    m_diags.Error(element->location, "a tuple cannot hold " +
                                                         TypeName(element.get()) +
                                                         ": its elements are values");
                }
            }
        }
    }

    /// The value of a compile-time constant expression that fits in 64 bits (the mid-end's
    /// folding, with the constants checked so far).
    std::optional<uint64_t> EvalConst(const Expression& expression) const
    {
        return m_folder.Evaluate(expression);
    }

    /// `@p4runtime_translation("uri", T)` on a `type`: T, the control plane's type for it, is a
    /// width, bit<W> or string (p4c rejects the rest).
    void CheckTranslation(const TypedefDecl& typeDef)
    {
        const Annotation* translation =
            FindAnnotation(typeDef.annotations, "p4runtime_translation");
        if (!translation)
        {
            return;
        }
        const auto& body = translation->body;
        const auto comma = std::find(body.begin(), body.end(), ",");
        const std::vector<std::string> type(comma == body.end() ? body.end() : comma + 1,
                                            body.end());
        const auto isNumber = [](const std::string& token) {
            return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c)) != 0;
            });
        };
        const bool width = type.size() == 1 && isNumber(type[0]);
        const bool string = type.size() == 1 && type[0] == "string";
        const bool bits = type.size() >= 4 && type[0] == "bit" && type[1] == "<" &&
                          type.back() == ">";
        if (!width && !string && !bits)
        {
            std::string written;
            for (const std::string& token : type)
            {
                written += token;
            }
            m_diags.Error(translation->location,
                          "@p4runtime_translation of type '" + typeDef.name +
                              "': the control plane's type must be a width, bit<W> or "
                              "string, not '" +
                              written + "'");
        }
    }

    /// The value of a constant `int` or `int<N>` expression that is below zero.
    std::optional<int64_t> NegativeValue(const Expression& expression) const
    {
        const Type* type = Canon(expression.type);
        const unsigned width = ScalarWidth(type);
        const bool isInt = type && type->Is<InfIntType>();
        const auto value = EvalConst(expression);
        if (!value || (!isInt && !IsSignedScalar(type)))
        {
            return std::nullopt;
        }
        const int64_t signedValue = isInt || width >= 64
                                        ? static_cast<int64_t>(*value)
                                        : p4rt::SignExtend(*value, width);
        return signedValue < 0 ? std::optional<int64_t>(signedValue) : std::nullopt;
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
        if (const auto* valueSet = declaration.As<ValueSetDecl>())
        {
            return Norm(valueSet->elementType.get()); // as a select label: one of its values
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
            const auto* named = parameter->type ? parameter->type->As<NamedType>() : nullptr;
            const auto* externDecl =
                named && named->resolved ? named->resolved->As<ExternDecl>() : nullptr;
            if (externDecl && named->typeArgs.empty() && !externDecl->typeParams.empty())
            {
                m_diags.Error(parameter->location,
                              "'" + parameter->name + "': extern '" + externDecl->name +
                                  "' is generic, so its type arguments are needed here");
            }
            const Type* type = Canon(parameter->type.get());
            if (type && type->Is<InfIntType>() && parameter->direction != Direction::None)
            {
                // An int has no width, so it exists only at compile time (as p4c requires).
                m_diags.Error(parameter->location,
                              "parameter '" + parameter->name +
                                  "' of type int must be directionless");
            }
            if (parameter->defaultValue)
            {
                CheckExpression(*parameter->defaultValue);
                CheckAssign(parameter->type.get(), *parameter->defaultValue);
                if (!IsCompileTimeKnown(*parameter->defaultValue))
                {
                    m_diags.Error(parameter->defaultValue->location,
                                  ToString(*parameter->defaultValue) +
                                      ": the default value of a parameter must be a "
                                      "compile-time constant");
                }
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
                m_folder.Fold(*constant);
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
                CheckAbstractMethods(*instance, *externDecl);
            }
            else if (instance->hasInitializer)
            {
                m_diags.Error(instance->location, "'" + instance->name + "': only an instance of "
                                                  "an extern with abstract methods takes an "
                                                  "initializer");
            }
            else if (const auto* package = typeDecl ? typeDecl->As<PackageTypeDecl>() : nullptr)
            {
                if (CheckArity(package->name, {package}, instance->args,
                               instance->type->location))
                {
                    CheckPackageArguments(*package, instance->args);
                }
            }
            if (m_scopes.size() == 1 && instance->name == "main" && typeDecl &&
                !typeDecl->Is<PackageTypeDecl>())
            {
                m_diags.Error(instance->location,
                              "'main' must be an instance of a package, not of '" +
                                  typeDecl->name + "'");
            }
            else if (m_scopes.size() == 1 && typeDecl &&
                     (typeDecl->Is<ControlDecl>() || typeDecl->Is<ParserDecl>()))
            {
                // P4_16 (and p4c) instantiate parsers and controls only inside a parser or
                // control, or as a constructor argument.
                m_diags.Error(instance->location,
                              std::string(typeDecl->Is<ControlDecl>() ? "control" : "parser") +
                                  " '" + typeDecl->name +
                                  "' cannot be instantiated at the top level: instantiate it "
                                  "inside a parser or control, or pass it to a package");
            }
            Declare(declaration);
        }
        else if (auto* typeDef = declaration.As<TypedefDecl>())
        {
            ResolveType(typeDef->type.get());
            const Type* defined = Canon(typeDef->type.get());
            if (typeDef->isNewType && defined &&
                (defined->Is<TupleType>() || !IsUnknown(defined)) &&
                !defined->Is<BitsType>() && !defined->Is<BoolType>() && !NewTypeDecl(defined))
            {
                m_diags.Error(typeDef->type->location,
                              "type '" + typeDef->name + "' must be defined as bit<N>, int<N>, "
                              "bool or another 'type', not " + TypeName(defined));
            }
            CheckTranslation(*typeDef);
            Declare(declaration);
        }
        else if (auto* structLike = declaration.As<StructLikeDecl>())
        {
            CheckFields(*structLike);
            Declare(declaration);
        }
        else if (auto* enumDecl = declaration.As<EnumDecl>())
        {
            ResolveType(enumDecl->underlyingType.get());
            const Type* underlying = Canon(enumDecl->underlyingType.get());
            if (underlying && !IsUnknown(underlying) && !underlying->Is<BitsType>())
            {
                m_diags.Error(enumDecl->underlyingType->location,
                              "the underlying type of enum '" + enumDecl->name +
                                  "' must be bit<N> or int<N>, not " + TypeName(underlying));
            }
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
                CheckExternMethodTypes(*externDecl, *method);
            }
        }
        else if (auto* function = declaration.As<FunctionDecl>())
        {
            if (function->body)
            {
                CheckFunction(*function);
                return;
            }
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
            CheckNoOptional(action->params);
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
        else if (auto* valueSet = declaration.As<ValueSetDecl>())
        {
            ResolveType(valueSet->elementType.get());
            CheckExpression(*valueSet->size);
            if (m_context != Context::Parser)
            {
                m_diags.Error(valueSet->location, "value_set '" + valueSet->name +
                                                      "' must be declared in a parser");
            }
            if (!IsCompileTimeKnown(*valueSet->size) || !EvalConst(*valueSet->size))
            {
                m_diags.Error(valueSet->size->location,
                              ToString(*valueSet->size) + ": the size of value_set '" +
                                  valueSet->name + "' must be a compile-time constant");
            }
            Declare(declaration);
        }
        else
        {
            Declare(declaration);
        }
    }

    /// An extern with abstract methods is instantiated with an initializer that implements
    /// each of them, with the same signature, and nothing else (P4_16 spec, "Abstract methods").
    void CheckAbstractMethods(InstanceDecl& instance, const ExternDecl& externDecl)
    {
        if (instance.hasInitializer)
        {
            ScopeGuard scope(*this);
            const InstanceDecl* saved = m_thisInstance;
            m_thisInstance = &instance;
            for (auto& member : instance.initializer)
            {
                CheckDeclaration(*member);
            }
            m_thisInstance = saved;
        }
        std::set<const MethodDecl*> implemented;
        for (const auto& member : instance.initializer)
        {
            const auto* function = member->As<FunctionDecl>();
            if (!function)
            {
                continue;
            }
            const MethodDecl* method = nullptr;
            for (const auto& candidate : externDecl.methods)
            {
                if (candidate->isAbstract && candidate->name == function->name)
                {
                    method = candidate.get();
                }
            }
            if (!method)
            {
                m_diags.Error(function->location, "'" + function->name + "' implements no "
                                                  "abstract method of extern '" +
                                                  externDecl.name + "'");
                continue;
            }
            implemented.insert(method);
            if (!SameSignature(*function, *method))
            {
                m_diags.Error(function->location,
                              "'" + function->name + "' does not have the signature of the "
                              "abstract method it implements");
                m_diags.Note(method->location, "the abstract method is declared here");
            }
        }
        for (const auto& method : externDecl.methods)
        {
            if (method->isAbstract && !implemented.count(method.get()))
            {
                m_diags.Error(instance.location, "'" + instance.name + "' does not implement "
                                                 "the abstract method '" + method->name +
                                                 "' of extern '" + externDecl.name + "'");
            }
        }
    }

    static bool SameSignature(const FunctionDecl& function, const MethodDecl& method)
    {
        if (function.params.size() != method.params.size() ||
            !SameType(function.returnType.get(), method.returnType.get()))
        {
            return false;
        }
        for (size_t i = 0; i < function.params.size(); ++i)
        {
            if (function.params[i]->direction != method.params[i]->direction ||
                !SameType(function.params[i]->type.get(), method.params[i]->type.get()))
            {
                return false;
            }
        }
        return true;
    }

    /// An extern's constructor takes no parser or control, and its methods return none (p4c's
    /// rules: an extern instance is built from values and other externs).
    void CheckExternMethodTypes(const ExternDecl& externDecl, const MethodDecl& method)
    {
        for (const auto& parameter : method.params)
        {
            std::optional<bool> isParser = IsParserOrControl(Canon(parameter->type.get()));
            if (isParser && method.isConstructor)
            {
                m_diags.Error(parameter->location,
                              "'" + parameter->name + "': a parameter of extern '" +
                                  externDecl.name + "' cannot have the " +
                                  (*isParser ? "parser" : "control") + " type " +
                                  TypeName(parameter->type.get()));
            }
        }
        const Type* returnType = Canon(method.returnType.get());
        if (returnType && returnType->Is<InfIntType>())
        {
            m_diags.Error(method.returnType->location,
                          "method '" + method.name + "' of extern '" + externDecl.name +
                              "' cannot return 'int': give the value a width");
        }
        if (std::optional<bool> isParser = IsParserOrControl(returnType))
        {
            m_diags.Error(method.returnType->location,
                          "method '" + method.name + "' of extern '" + externDecl.name +
                              "' cannot return the " + (*isParser ? "parser" : "control") +
                              " type " + TypeName(method.returnType.get()));
        }
    }

    /// The fields of a header, struct or header_union (its type parameters in scope): their
    /// types, and at most one varbit in a header.
    void CheckFields(StructLikeDecl& structLike)
    {
        ScopeGuard scope(*this);
        DeclareTypeParameters(structLike.typeParams);
        const StructField* varbit = nullptr;
        for (auto& field : structLike.fields)
        {
            ResolveType(field->type.get());
            CheckFieldType(structLike, *field);
            const Type* type = Canon(field->type.get());
            if (type && type->Is<VarbitType>() && structLike.Is<HeaderDecl>())
            {
                if (varbit)
                {
                    m_diags.Error(field->location,
                                  "header '" + structLike.name + "' has a second varbit field '" +
                                      field->name + "' (after '" + varbit->name +
                                      "'): a header has at most one");
                }
                varbit = field.get();
            }
        }
    }

    static const char* KindName(const StructLikeDecl& decl)
    {
        const auto* structDecl = decl.As<StructDecl>();
        return decl.Is<HeaderDecl>() ? "header"
               : structDecl && structDecl->isUnion ? "header_union"
                                                   : "struct";
    }

    static bool IsUnion(const Declaration* decl)
    {
        const auto* structDecl = decl ? decl->As<StructDecl>() : nullptr;
        return structDecl && structDecl->isUnion;
    }

    /// What a field may hold (p4c's rules): a header_union holds headers; a header holds bits,
    /// bools, serializable enums and structs of those, never headers, unions, stacks or
    /// blocks; no field holds a parser, control, package or extern.
    void CheckFieldType(const StructLikeDecl& decl, const StructField& field)
    {
        const Type* type = Canon(field.type.get());
        if (!type || (IsUnknown(type) && !type->Is<TupleType>()))
        {
            return;
        }
        const Declaration* typeDecl = NamedDecl(type);
        bool allowed = true;
        if (IsUnion(&decl))
        {
            allowed = typeDecl && typeDecl->Is<HeaderDecl>();
        }
        else if (decl.Is<HeaderDecl>())
        {
            allowed = HeaderFieldAllowed(type);
        }
        else
        {
            bool block = typeDecl && (typeDecl->Is<ExternDecl>() || typeDecl->Is<PackageTypeDecl>());
            allowed = !IsParserOrControl(type) && !block;
        }
        if (!allowed)
        {
            m_diags.Error(field.location, "field '" + field.name + "' of " + KindName(decl) +
                                              " '" + decl.name + "' cannot have type " +
                                              TypeName(field.type.get()));
        }
    }

    /// Whether a header field may have type `type`: bits, varbit, bool, a serializable enum,
    /// a `type`, a type parameter (checked where the header is named with its arguments), or a
    /// struct whose fields are all of those.
    static bool HeaderFieldAllowed(const Type* type, int depth = 0)
    {
        type = Canon(type);
        if (!type || depth > 64 || (IsUnknown(type) && !type->Is<TupleType>()))
        {
            return true;
        }
        const Declaration* typeDecl = NamedDecl(type);
        const auto* enumDecl = typeDecl ? typeDecl->As<EnumDecl>() : nullptr;
        const auto* structDecl = typeDecl ? typeDecl->As<StructDecl>() : nullptr;
        if (structDecl && !structDecl->isUnion)
        {
            return std::all_of(structDecl->fields.begin(), structDecl->fields.end(),
                               [&](const auto& field) {
                                   return HeaderFieldAllowed(field->type.get(), depth + 1);
                               });
        }
        return type->Is<BitsType>() || type->Is<VarbitType>() || type->Is<BoolType>() ||
               (enumDecl && enumDecl->underlyingType) ||
               (typeDecl && typeDecl->Is<TypedefDecl>());
    }

    /// A generic header named with its type arguments (`t<y>`): each field typed by a type
    /// parameter, with the argument in its place, must be what a header field may hold.
    void CheckHeaderTypeArguments(const NamedType& named)
    {
        const auto* header = named.resolved ? named.resolved->As<HeaderDecl>() : nullptr;
        if (!header || header->typeParams.size() != named.typeArgs.size())
        {
            return;
        }
        for (const auto& field : header->fields)
        {
            const auto* fieldType = field->type ? field->type->As<NamedType>() : nullptr;
            for (size_t i = 0; fieldType && i < header->typeParams.size(); ++i)
            {
                if (fieldType->resolved == header->typeParams[i].get() &&
                    !HeaderFieldAllowed(named.typeArgs[i].get()))
                {
                    m_diags.Error(named.typeArgs[i]->location,
                                  "field '" + field->name + "' of header '" + header->name +
                                      "' cannot have type " +
                                      TypeName(named.typeArgs[i].get()));
                }
            }
        }
    }

    /// A function with a body (P4_16 spec, "Functions"): declared before its body, so that a
    /// call to itself resolves and is reported as recursion. A function that returns a value
    /// must return one on every path.
    void CheckFunction(FunctionDecl& function)
    {
        Declare(function);
        ScopeGuard scope(*this);
        DeclareTypeParameters(function.typeParams);
        ResolveType(function.returnType.get());
        CheckParameters(function.params);
        CheckNoOptional(function.params);
        Context saved = m_context;
        m_context = Context::Function;
        m_function = &function;
        CheckBlock(*function.body);
        const Type* returnType = Canon(function.returnType.get());
        if (returnType && !returnType->Is<VoidType>() && MayFallThrough(*function.body))
        {
            m_diags.Error(function.location, "function '" + function.name +
                                                 "' does not return a value on every path");
        }
        m_function = nullptr;
        m_context = saved;
    }

    /// Whether control can reach the end of `statement` (P4 has no loops or goto here: a path
    /// ends at a return or an exit, or in both branches of an if).
    static bool MayFallThrough(const Statement& statement)
    {
        if (statement.Is<ReturnStmt>() || statement.Is<ExitStmt>())
        {
            return false;
        }
        if (const auto* block = statement.As<BlockStmt>())
        {
            for (const auto& inner : block->statements)
            {
                if (!MayFallThrough(*inner))
                {
                    return false;
                }
            }
            return true;
        }
        if (const auto* ifStmt = statement.As<IfStmt>())
        {
            return !ifStmt->elseBranch || MayFallThrough(*ifStmt->thenBranch) ||
                   MayFallThrough(*ifStmt->elseBranch);
        }
        return true;
    }

    /// V1Switch(MyParser(), ...): each argument must be a parser or control whose parameters
    /// match the architecture's declaration, with the package's type parameters (H, M) bound
    /// consistently across the arguments.
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

    /// Whether `type` names a parser (true) or a control (false); nullopt for anything else.
    static std::optional<bool> IsParserOrControl(const Type* type)
    {
        const Declaration* decl = NamedDecl(type);
        if (decl && (decl->Is<ParserDecl>() || decl->Is<ParserTypeDecl>()))
        {
            return true;
        }
        if (decl && (decl->Is<ControlDecl>() || decl->Is<ControlTypeDecl>()))
        {
            return false;
        }
        return std::nullopt;
    }

    /// P4_16 spec, "Instantiations": a parser instantiates no control and a control no parser,
    /// neither as a local instance nor as a constructor parameter.
    void CheckNestedBlocks(bool inParser, const PtrList<Parameter>& constructorParams,
                           const PtrList<Declaration>& locals)
    {
        const char* holder = inParser ? "parser" : "control";
        const char* other = inParser ? "control" : "parser";
        auto check = [&](const Declaration& declaration, const Type* type) {
            std::optional<bool> kind = IsParserOrControl(Canon(type));
            if (kind && *kind != inParser)
            {
                m_diags.Error(declaration.location, "'" + declaration.name + "': a " + holder +
                                                        " cannot instantiate a " + other);
            }
        };
        for (const auto& parameter : constructorParams)
        {
            check(*parameter, parameter->type.get());
        }
        for (const auto& local : locals)
        {
            if (const auto* instance = local->As<InstanceDecl>())
            {
                check(*instance, instance->type.get());
            }
        }
    }

    /// @optional marks parameters of extern functions and methods and of packages only (p4c:
    /// "optional parameter not allowed here").
    void CheckNoOptional(const PtrList<Parameter>& params)
    {
        for (const auto& parameter : params)
        {
            if (FindAnnotation(parameter->annotations, "optional"))
            {
                m_diags.Error(parameter->location,
                              "'" + parameter->name + "': @optional is only allowed on "
                              "parameters of extern functions, extern methods and packages");
            }
        }
    }

    void CheckParser(ParserDecl& parser)
    {
        ScopeGuard scope(*this);
        DeclareTypeParameters(parser.typeParams);
        CheckParameters(parser.params);
        CheckParameters(parser.constructorParams);
        CheckNoOptional(parser.params);
        CheckNoOptional(parser.constructorParams);
        Context saved = m_context;
        m_context = Context::Parser;
        for (auto& local : parser.locals)
        {
            CheckDeclaration(*local);
        }
        CheckNestedBlocks(true, parser.constructorParams, parser.locals);
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
        CheckNoOptional(control.params);
        CheckNoOptional(control.constructorParams);
        Context saved = m_context;
        m_context = Context::Control;
        for (auto& local : control.locals)
        {
            CheckDeclaration(*local);
        }
        CheckNestedBlocks(false, control.constructorParams, control.locals);
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
        CheckNoTableApply(ref.args);
        return action;
    }

    void CheckTable(TableDecl& table)
    {
        std::vector<const Type*> keyTypes;
        std::vector<const ActionDecl*> actions;
        std::set<const ActionDecl*> defaultOnly;
        std::set<const ActionDecl*> tableOnly;
        std::map<const ActionDecl*, const ActionRef*> listed;
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
                        listed.emplace(action, ref.get());
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
                    if (action)
                    {
                        CheckBoundArguments(*action, *property->defaultAction, *listed[action]);
                    }
                    if (action && tableOnly.count(action))
                    {
                        m_diags.Error(property->defaultAction->action->location,
                                      "'" + action->name + "' is @tableonly in table '" +
                                          table.name + "': it cannot be the default action");
                    }
                }
                break;
            case TablePropertyKind::Entries:
                if (keyTypes.empty() && !property->entries.empty())
                {
                    m_diags.Error(table.location, "table '" + table.name +
                                                      "' has no key, so it cannot have entries");
                }
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
                        if (action)
                        {
                            CheckBoundArguments(*action, *entry->action, *listed[action]);
                        }
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
                    if (property->name == "size")
                    {
                        CheckSize(*property);
                    }
                }
                break;
            }
        }
        CheckEntryPriorities(table);
    }

    /// Entry priorities as the P4_16 spec numbers them: after an entry with `priority = N`,
    /// each entry without one gets the one before it minus `priority_delta` (default 1), or
    /// plus it when `largest_priority_wins = false`. None may be negative.
    void CheckEntryPriorities(const TableDecl& table)
    {
        const TableProperty* entries = table.Entries();
        if (!entries || entries->entries.empty() || !entries->entries.front()->priority)
        {
            return;
        }
        const auto valueOf = [&](const char* name, int64_t otherwise) {
            const TableProperty* property = table.FindProperty(name);
            const auto value = property && property->value ? EvalConst(*property->value)
                                                           : std::nullopt;
            return value ? static_cast<int64_t>(*value) : otherwise;
        };
        const bool largestWins = valueOf("largest_priority_wins", 1) != 0;
        const int64_t delta = valueOf("priority_delta", 1);
        std::optional<int64_t> previous;
        for (const auto& entry : entries->entries)
        {
            std::optional<uint64_t> given = entry->priority ? EvalConst(*entry->priority)
                                                            : std::nullopt;
            if (given)
            {
                previous = static_cast<int64_t>(*given);
                continue;
            }
            if (!previous || entry->priority)
            {
                return; // a priority that is not a constant: reported where it is checked
            }
            previous = largestWins ? *previous - delta : *previous + delta;
            if (*previous < 0)
            {
                m_diags.Error(entry->location,
                              fmt::format("this entry's priority would be {} (the one before "
                                          "it {} priority_delta {}): entry priorities cannot "
                                          "be negative",
                                          *previous, largestWins ? "minus" : "plus", delta));
                return;
            }
        }
    }

    /// `size = N;`: a constant number of entries.
    void CheckSize(const TableProperty& property)
    {
        const Type* type = Canon(property.value->type);
        bool numeric = type && (type->Is<BitsType>() || type->Is<InfIntType>());
        if (!numeric || !EvalConst(*property.value))
        {
            m_diags.Error(property.value->location,
                          "a table's size must be a constant number, not " +
                              ToString(*property.value));
        }
    }

    /// A default action or entry that names an action whose arguments the actions list binds
    /// (`actions = { a(1); }`) must give those arguments the same values (as p4c requires)
    /// when it gives all of the action's arguments rather than the directionless rest.
    void CheckBoundArguments(const ActionDecl& action, const ActionRef& ref,
                             const ActionRef& inList)
    {
        if (ref.args.size() != action.params.size())
        {
            return;
        }
        for (size_t i = 0; i < inList.args.size() && i < ref.args.size(); ++i)
        {
            const Expression* bound = inList.args[i]->value.get();
            const Expression* given = ref.args[i]->value.get();
            if (!bound || !given || !inList.args[i]->name.empty() || !ref.args[i]->name.empty())
            {
                continue;
            }
            std::optional<uint64_t> boundValue = EvalConst(*bound);
            std::optional<uint64_t> givenValue = EvalConst(*given);
            bool differ = boundValue && givenValue ? *boundValue != *givenValue
                                                   : ToString(*bound) != ToString(*given);
            if (differ)
            {
                m_diags.Error(given->location, "argument " + ToString(*given) +
                                                   " does not match the actions list's " +
                                                   ToString(*bound));
                m_diags.Note(bound->location, "the actions list binds it here");
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

    /// Whether `expression` is known at compile time (P4_16 spec, "Compile-time known values"):
    /// literals, constants, enum and error members, a constructor's (directionless) parameters
    /// outside actions, and operators, casts and lists of those. A value_set counts: as a select
    /// label it stands for values the control plane fixes before packets run.
    bool IsCompileTimeKnown(const Expression& expression) const
    {
        if (expression.Is<IntegerLiteral>() || expression.Is<BoolLiteral>() ||
            expression.Is<StringLiteral>() || expression.Is<DefaultExpr>() ||
            expression.Is<DontCareExpr>())
        {
            return true;
        }
        if (const auto* name = expression.As<NameExpr>())
        {
            const Declaration* decl = name->resolved;
            const auto* parameter = decl ? decl->As<Parameter>() : nullptr;
            return !decl || decl->Is<ConstDecl>() || decl->Is<EnumMember>() ||
                   decl->Is<ValueSetDecl>() ||
                   (parameter && parameter->direction == Direction::None &&
                    m_context != Context::Action);
        }
        if (const auto* member = expression.As<MemberExpr>())
        {
            return member->resolved && member->resolved->Is<EnumMember>();
        }
        bool known = !expression.Is<CallExpr>() && !expression.Is<IndexExpr>() &&
                     !expression.Is<SelectExpr>();
        ForEachChild(expression, [&](const Node& child) {
            if (const auto* inner = child.As<Expression>())
            {
                known = known && IsCompileTimeKnown(*inner);
            }
        });
        return known;
    }

    /// A select label or entry key must be known at compile time.
    void CheckKnownKey(const Expression& key)
    {
        if (!IsCompileTimeKnown(key))
        {
            m_diags.Error(key.location, ToString(key) + ": a select label or table entry key "
                                                        "must be a compile-time constant");
        }
    }

    /// A value_set as a select label: a value set of structs matches one selector per field
    /// (p4c checks no more than the count), any other one selector.
    void CheckValueSetLabel(const ValueSetDecl& valueSet, const std::vector<const Type*>& types,
                            Expression& label)
    {
        const Declaration* element = NamedDecl(Canon(valueSet.elementType.get()));
        const auto* structDecl = element ? element->As<StructDecl>() : nullptr;
        size_t count = structDecl ? structDecl->fields.size() : 1;
        if (count != types.size())
        {
            m_diags.Error(label.location, "value_set '" + valueSet.name + "' matches " +
                                              Plural(count, "key") + ", the select has " +
                                              std::to_string(types.size()));
            return;
        }
        if (!structDecl)
        {
            CheckMatches(types[0], label);
        }
    }

    /// The keys of a select case or a table entry against the selector/key types.
    void CheckKeyset(PtrList<Expression>& keys,
                     const std::vector<const Type*>& types,
                     const SourceLocation& location)
    {
        for (auto& key : keys)
        {
            CheckExpression(*key);
            CheckKnownKey(*key);
        }
        const auto* name = keys.size() == 1 ? keys[0]->As<NameExpr>() : nullptr;
        if (const auto* valueSet =
                name && name->resolved ? name->resolved->As<ValueSetDecl>() : nullptr)
        {
            CheckValueSetLabel(*valueSet, types, *keys[0]);
            return;
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
        // `E.a &&& 0xff00` on a serializable enum's key is a mask of its underlying type.
        const auto* binary = key.As<BinaryExpr>();
        const bool maskOrRange =
            binary && (binary->op == BinaryOp::Mask || binary->op == BinaryOp::Range);
        const Type* underlying = EnumUnderlying(type);
        if (!Assignable(type, key.type) &&
            !(maskOrRange && underlying && Assignable(underlying, key.type)))
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
        const char* kind = KindName(decl);
        if (IsUnion(&decl))
        {
            m_diags.Error(value.location, "a header_union ('" + decl.name +
                                              "') cannot be initialized from a list");
            return;
        }
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
            m_statementCall = call->call.get();
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
            else if (m_context == Context::Function)
            {
                m_diags.Error(statement.location, "'exit' is not allowed in a function");
            }
        }
        else if (auto* ret = statement.As<ReturnStmt>())
        {
            if (m_context == Context::Parser)
            {
                m_diags.Error(statement.location, "'return' is not allowed in a parser");
            }
            if (m_context == Context::Function)
            {
                CheckReturn(*ret);
            }
            else if (ret->value)
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

    /// `return` in a function: a value of the return type, none in a void function.
    void CheckReturn(ReturnStmt& ret)
    {
        const Type* returnType = Canon(m_function->returnType.get());
        bool isVoid = !returnType || returnType->Is<VoidType>();
        if (!ret.value)
        {
            if (!isVoid)
            {
                m_diags.Error(ret.location, "function '" + m_function->name +
                                                "' must return a value of type " +
                                                TypeName(returnType));
            }
            return;
        }
        CheckExpression(*ret.value);
        if (isVoid)
        {
            m_diags.Error(ret.value->location,
                          "function '" + m_function->name + "' returns void, not a value");
            return;
        }
        CheckAssign(m_function->returnType.get(), *ret.value);
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
        m_switchSubject = switchStmt.expression.get();
        CheckExpression(*switchStmt.expression);
        m_switchSubject = nullptr;
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

    /// The fewest arguments `params` accepts (those without a default or @optional).
    static size_t RequiredCount(const PtrList<Parameter>& params)
    {
        size_t required = 0;
        for (const auto& parameter : params)
        {
            bool optional =
                parameter->defaultValue || FindAnnotation(parameter->annotations, "optional");
            required += optional ? 0 : 1;
        }
        return required;
    }

    static bool Accepts(const Declaration& candidate, size_t argumentCount)
    {
        const PtrList<Parameter>* params = ParamsOf(candidate);
        return !params ||
               (argumentCount >= RequiredCount(*params) && argumentCount <= params->size());
    }

    /// The declarations a call of `name` with `argumentCount` arguments may mean: the
    /// innermost scope's that has one taking that many (calls overload by arity across
    /// scopes, as p4c resolves them: an action `hash` does not hide the extern function
    /// `hash` from a call with five arguments), else the innermost's, for CheckArity to
    /// report.
    const Candidates* LookupCall(const std::string& name, bool global, size_t argumentCount) const
    {
        if (global)
        {
            return Lookup(name, true);
        }
        const Candidates* innermost = nullptr;
        for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope)
        {
            auto found = scope->find(name);
            if (found == scope->end())
            {
                continue;
            }
            if (std::any_of(found->second.begin(), found->second.end(),
                            [&](const Declaration* d) { return Accepts(*d, argumentCount); }))
            {
                return &found->second;
            }
            innermost = innermost ? innermost : &found->second;
        }
        return innermost;
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
            if (Accepts(*candidate, args.size()))
            {
                return candidate;
            }
            if (first)
            {
                const PtrList<Parameter>& params = *ParamsOf(*candidate);
                minCount = RequiredCount(params);
                maxCount = params.size();
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
        if (const PtrList<Parameter>* params = ParamsOf(callee))
        {
            CheckArgumentsAgainst(callee, *params, args);
        }
    }

    void CheckArgumentsAgainst(const Declaration& callee, const PtrList<Parameter>& parameters,
                               PtrList<Argument>& args)
    {
        const PtrList<Parameter>* params = &parameters;
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
            if (parameter && value && value->Is<DontCareExpr>() &&
                parameter->direction != Direction::Out)
            {
                m_diags.Error(value->location, "'_' is only allowed as the argument of an out "
                                               "parameter, not of '" + parameter->name +
                                                   "' of '" + callee.name + "'");
            }
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
                    const auto negative = NegativeValue(*index->index);
                    m_diags.Error(index->index->location,
                                  "index " +
                                      (negative ? std::to_string(*negative)
                                                : std::to_string(*value)) +
                                      " is out of range for " +
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
            const Declaration* target = NamedDecl(Canon(cast->type));
            if (target && target->Is<StructLikeDecl>() && !cast->operand->Is<ListExpr>() &&
                !cast->operand->Is<StructExpr>())
            {
                // p4c: only a list or struct initializer is cast to a struct or header.
                m_diags.Error(cast->location, "cannot cast " + ToString(*cast->operand) +
                                                  " to " + TypeName(cast->type) +
                                                  ": only an initializer list is cast to a " +
                                                  (target->Is<HeaderDecl>() ? "header" : "struct"));
            }
            else if (!CanCast(cast->operand->type, cast->type))
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
            CheckKnownKey(*keys[i]);
            CheckMatches(types[i], *keys[i]);
        }
    }

    void CheckName(NameExpr& name)
    {
        if (name.name == "this")
        {
            if (!m_thisInstance)
            {
                m_diags.Error(name.location, "'this' is only allowed in the initializer of an "
                                             "extern instance");
                return;
            }
            name.resolved = m_thisInstance;
            name.type = TypeOfDecl(*m_thisInstance);
            return;
        }
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
        if (IsSizeQuery(member.member) && !(NamedDecl(objectType) &&
                                            NamedDecl(objectType)->Is<ExternDecl>()))
        {
            return; // a method of every value; CheckCall types the call
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
            if (structDecl->isUnion && member.member == "isValid")
            {
                return; // the one method of a header_union; CheckCall types the call
            }
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
            else if (member.member == "action_run" && &member != m_switchSubject)
            {
                m_diags.Error(member.location, ToString(member) +
                                                   ": 'action_run' is only allowed as the "
                                                   "expression of a switch statement");
            }
            else if (member.member != "action_run")
            {
                m_diags.Error(member.location, "a table's apply() result has no member '" +
                                                   member.member + "'");
            }
        }
    }

    /// `p.apply(...)` of a parser or control instance (or constructor parameter): the
    /// arguments against the block's apply parameters.
    void CheckApplyArguments(CallExpr& call, const Declaration& block)
    {
        const PtrList<Parameter>* params = nullptr;
        if (const auto* parser = block.As<ParserDecl>())
        {
            params = &parser->params;
        }
        else if (const auto* parserType = block.As<ParserTypeDecl>())
        {
            params = &parserType->params;
        }
        else if (const auto* control = block.As<ControlDecl>())
        {
            params = &control->params;
        }
        else if (const auto* controlType = block.As<ControlTypeDecl>())
        {
            params = &controlType->params;
        }
        if (!params)
        {
            return;
        }
        if (call.args.size() != params->size())
        {
            m_diags.Error(call.location, "'apply' of '" + block.name + "' expects " +
                                             Plural(params->size(), "argument") + ", got " +
                                             std::to_string(call.args.size()));
            return;
        }
        CheckArgumentsAgainst(block, *params, call.args);
    }

    /// minSizeInBits() and its kin: methods of every expression (P4_16 spec, "Operations on
    /// types"), giving an `int`.
    static bool IsSizeQuery(const std::string& name)
    {
        return name == "minSizeInBits" || name == "minSizeInBytes" ||
               name == "maxSizeInBits" || name == "maxSizeInBytes";
    }

    static bool HasVarbit(const StructLikeDecl& decl)
    {
        for (const auto& field : decl.fields)
        {
            const Type* type = Canon(field->type.get());
            if (type && type->Is<VarbitType>())
            {
                return true;
            }
        }
        return false;
    }

    /// packet_in.extract(h) takes a header; extract(h, n) one with a varbit field. lookahead<T>
    /// cannot look at a varbit (its length is unknown).
    void CheckExtract(const CallExpr& call)
    {
        const Expression* target = call.args.empty() ? nullptr : call.args[0]->value.get();
        const Type* type = target ? Canon(target->type) : nullptr;
        if (!type || IsUnknown(type))
        {
            return;
        }
        const Declaration* decl = NamedDecl(type);
        if (!decl || !decl->Is<HeaderDecl>())
        {
            m_diags.Error(target->location, ToString(*target) +
                                                ": the argument of extract must be a header, "
                                                "not " + TypeName(type));
            return;
        }
        if (call.args.size() == 2 && !HasVarbit(*decl->As<HeaderDecl>()))
        {
            m_diags.Error(target->location, ToString(*target) + ": extract with a length needs "
                                                "a header with a varbit field, and header '" +
                                                decl->name + "' has none");
        }
    }

    /// What may not be passed: a parser or control to a function (it would be a value), a
    /// table's apply() inside an action's arguments (p4c's BMv2 back end cannot order it).
    void CheckArgumentKinds(const CallExpr& call, const Declaration& callee)
    {
        for (const auto& argument : call.args)
        {
            const Expression* value = argument->value.get();
            if (!value)
            {
                continue;
            }
            if (callee.Is<FunctionDecl>() && IsParserOrControl(Canon(value->type)))
            {
                m_diags.Error(value->location, ToString(*value) + ": a " +
                                                   (*IsParserOrControl(Canon(value->type))
                                                        ? "parser"
                                                        : "control") +
                                                   " cannot be passed to function '" +
                                                   callee.name + "'");
            }
        }
        if (callee.Is<ActionDecl>())
        {
            CheckNoTableApply(call.args);
        }
    }

    void CheckNoTableApply(const PtrList<Argument>& args)
    {
        for (const auto& argument : args)
        {
            if (argument->value && AppliesTable(*argument->value))
            {
                m_diags.Error(argument->value->location,
                              ToString(*argument->value) +
                                  ": an action's argument cannot apply a table");
            }
        }
    }

    static bool AppliesTable(const Node& node)
    {
        if (const auto* call = node.As<CallExpr>())
        {
            const auto* member = call->callee->As<MemberExpr>();
            const auto* object = member ? member->object->As<NameExpr>() : nullptr;
            if (member && member->member == "apply" && object && object->resolved &&
                object->resolved->Is<TableDecl>())
            {
                return true;
            }
        }
        bool found = false;
        ForEachChild(node, [&](const Node& child) { found = found || AppliesTable(child); });
        return found;
    }

    /// A call that gives no value (an action, a void function or method) is a statement, not
    /// an operand.
    void CheckCallGivesValue(const CallExpr& call, const Declaration& callee,
                             bool isStatement)
    {
        const Type* returnType = nullptr;
        if (const auto* function = callee.As<FunctionDecl>())
        {
            returnType = Canon(function->returnType.get());
        }
        else if (const auto* method = callee.As<MethodDecl>())
        {
            returnType = Canon(method->returnType.get());
        }
        bool noValue = callee.Is<ActionDecl>() || (returnType && returnType->Is<VoidType>());
        if (noValue && !isStatement)
        {
            m_diags.Error(call.location, ToString(call) + ": '" + callee.name +
                                             "' returns no value, so its call is not an "
                                             "expression");
        }
    }

    void CheckCall(CallExpr& call)
    {
        const bool isStatement = m_statementCall == &call;
        m_statementCall = nullptr;
        for (auto& typeArg : call.typeArgs)
        {
            ResolveType(typeArg.get());
        }
        CheckArguments(call.args);
        Expression& callee = *call.callee;
        if (auto* name = callee.As<NameExpr>())
        {
            const Candidates* found = LookupCall(name->name, name->global, call.args.size());
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
            if (const auto* externDecl = chosen->As<ExternDecl>())
            {
                for (const auto& method : externDecl->methods)
                {
                    if (method->isAbstract)
                    {
                        m_diags.Error(call.location,
                                      ToString(call) + ": extern '" + externDecl->name +
                                          "' has abstract methods, so only an instance with "
                                          "an initializer that implements them can be made");
                        return;
                    }
                }
            }
            if (chosen->Is<ActionDecl>() && m_context == Context::Parser)
            {
                m_diags.Error(call.location, "an action cannot be called from a parser");
            }
            if (chosen->Is<ActionDecl>() && m_context == Context::Function)
            {
                m_diags.Error(call.location, "an action cannot be called from a function");
            }
            if (chosen == m_action || (m_function && chosen == m_function))
            {
                const char* kind = chosen == m_action ? "action" : "function";
                m_diags.Error(call.location, std::string(kind) + " '" + chosen->name +
                                                 "' calls itself; P4 does not allow recursion");
            }
            CheckArgumentTypes(*chosen, call.args);
            CheckCallGivesValue(call, *chosen, isStatement);
            CheckArgumentKinds(call, *chosen);
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
        if (IsSizeQuery(member->member) && !(typeDecl && typeDecl->Is<ExternDecl>()))
        {
            if (!call.typeArgs.empty() || !call.args.empty())
            {
                m_diags.Error(call.location,
                              "'" + member->member + "' takes no type arguments and no "
                              "arguments, got " + Plural(call.typeArgs.size(), "type argument") +
                                  " and " + Plural(call.args.size(), "argument"));
            }
            call.type = InfInt();
            return;
        }
        if (member->member == "apply" && IsParserOrControl(objectType))
        {
            CheckApplyArguments(call, *typeDecl);
            return;
        }
        if (IsUnion(typeDecl) && member->member == "isValid")
        {
            if (!call.args.empty())
            {
                m_diags.Error(call.location, "'isValid' expects 0 arguments, got " +
                                                 std::to_string(call.args.size()));
            }
            call.type = Bool();
            return;
        }
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
            // push_front / pop_front
            for (const auto& argument : call.args)
            {
                if (argument->value && !IsCompileTimeKnown(*argument->value))
                {
                    m_diags.Error(argument->value->location,
                                  ToString(*argument->value) + ": the count of '" +
                                      member->member + "' must be a compile-time constant");
                }
            }
            return;
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
            CheckCallGivesValue(call, *chosen, isStatement);
            if (externDecl->name == "packet_in" && member->member == "extract")
            {
                CheckExtract(call);
            }
            if (externDecl->name == "packet_in" && member->member == "lookahead" &&
                call.typeArgs.size() == 1)
            {
                const Declaration* looked = NamedDecl(Canon(call.typeArgs[0].get()));
                const auto* header = looked ? looked->As<StructLikeDecl>() : nullptr;
                const Type* direct = Canon(call.typeArgs[0].get());
                if ((header && HasVarbit(*header)) || (direct && direct->Is<VarbitType>()))
                {
                    m_diags.Error(call.location, "lookahead<" + TypeName(call.typeArgs[0].get()) +
                                                     "> cannot look at a varbit field");
                }
            }
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
        for (const Expression* bound : {slice.high.get(), slice.low.get()})
        {
            if (const auto negative = NegativeValue(*bound))
            {
                m_diags.Error(bound->location, "the bounds of a slice cannot be negative, not " +
                                                   std::to_string(*negative));
                return;
            }
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
        if (!SameType(a, b))
        {
            // Against anything but itself, a serializable enum's value is its underlying type.
            a = EnumUnderlying(a) ? EnumUnderlying(a) : a;
            b = EnumUnderlying(b) ? EnumUnderlying(b) : b;
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
        if (binary.op != BinaryOp::Eq && binary.op != BinaryOp::Ne &&
            binary.op != BinaryOp::Mask && binary.op != BinaryOp::Range)
        {
            for (const Expression* operand : {binary.left.get(), binary.right.get()})
            {
                if (!IsArithmetic(operand->type))
                {
                    m_diags.Error(operand->location, std::string("'") + ToString(binary.op) +
                                                       "' needs numbers, not " +
                                                       TypeName(operand->type));
                    return;
                }
            }
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
    /// Each constant checked so far, folded.
    ConstantFolder m_folder;
    /// The action whose body is being checked, if any.
    const ActionDecl* m_action = nullptr;
    /// The function whose body is being checked, if any.
    const FunctionDecl* m_function = nullptr;
    /// The extern instance whose initializer is being checked (what `this` names).
    const InstanceDecl* m_thisInstance = nullptr;
    /// The call of the call statement being checked, until CheckCall takes it.
    const Expression* m_statementCall = nullptr;
    /// The expression of the switch statement being checked (where `action_run` may appear).
    const Expression* m_switchSubject = nullptr;
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
    diags.Error(SourceLocation::StartOf(program.sources->Get(path)),
                "the program instantiates no package 'main' (e.g. " +
                    Architectures().front()->exampleMain + "), so it has nothing to run");
    return false;
}

} // namespace incsim::p4
