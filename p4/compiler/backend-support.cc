#include "p4/compiler/backend-support.h"

#include "p4/compiler/diagnostics.h"

#include <string>

namespace incsim::p4
{

namespace
{
void
Unsupported(Diagnostics& diags, const SourceLocation& location, const std::string& construct)
{
    diags.Error(location, construct + " is not supported by incsim's back end yet");
}

/// Reports `node` if the back end cannot generate it, else looks inside it.
void
CheckNode(const ast::Node& node, Diagnostics& diags)
{
    if (const auto* function = node.As<ast::FunctionDecl>(); function && function->body)
    {
        Unsupported(diags, function->location,
                    "function '" + function->name + "' (a function with a body)");
        return;
    }
    if (const auto* valueSet = node.As<ast::ValueSetDecl>())
    {
        Unsupported(diags, valueSet->location, "value_set '" + valueSet->name + "'");
        return;
    }
    if (const auto* structLike = node.As<ast::StructLikeDecl>();
        structLike && !structLike->typeParams.empty())
    {
        Unsupported(diags, structLike->location,
                    "generic " + std::string(structLike->Is<ast::HeaderDecl>() ? "header" : "struct") +
                        " '" + structLike->name + "'");
        return;
    }
    if (node.Is<ast::VarbitType>())
    {
        Unsupported(diags, node.location, "varbit");
        return;
    }
    if (const auto* structDecl = node.As<ast::StructDecl>(); structDecl && structDecl->isUnion)
    {
        Unsupported(diags, structDecl->location, "header_union '" + structDecl->name + "'");
        return;
    }
    if (const auto* typeDef = node.As<ast::TypedefDecl>(); typeDef && typeDef->isNewType)
    {
        Unsupported(diags, typeDef->location,
                    "type '" + typeDef->name + "' (a 'type' declaration)");
        return;
    }
    if (const auto* call = node.As<ast::CallExpr>())
    {
        const auto* member = call->callee->As<ast::MemberExpr>();
        const std::string name = member ? member->member : "";
        if (member && !member->resolved &&
            (name == "minSizeInBits" || name == "minSizeInBytes" || name == "maxSizeInBits" ||
             name == "maxSizeInBytes"))
        {
            Unsupported(diags, call->location, "'" + name + "()'");
            return;
        }
    }
    if (const auto* instance = node.As<ast::InstanceDecl>(); instance && instance->hasInitializer)
    {
        Unsupported(diags, instance->location,
                    "instance '" + instance->name +
                        "' (an initializer that implements abstract methods)");
        return;
    }
    ast::ForEachChild(node, [&](const ast::Node& child) { CheckNode(child, diags); });
}
} // namespace

bool
CheckBackendSupport(const ast::Program& program, Diagnostics& diags)
{
    size_t errorsBefore = diags.ErrorCount();
    for (const auto& declaration : program.declarations)
    {
        CheckNode(*declaration, diags);
    }
    return diags.ErrorCount() == errorsBefore;
}

} // namespace incsim::p4
