// Tables: apply, schema, const entries.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

bool
Generator::IsTableApply(const CallExpr& call)
{
    const auto* member = call.callee->As<MemberExpr>();
    const auto* object = member ? member->object->As<NameExpr>() : nullptr;
    return member && member->member == "apply" && object && object->resolved &&
           object->resolved->Is<TableDecl>();
}

const Generator::TableInfo&
Generator::TableOf(const CallExpr& call) const
{
    const Declaration* table = call.callee->As<MemberExpr>()->object->As<NameExpr>()->resolved;
    return m_tables[m_tableIndex.at(table)];
}

std::optional<size_t>
Generator::ActionPosition(const TableInfo& table, const Declaration* action)
{
    const auto position = std::find(table.actions.begin(), table.actions.end(), action);
    if (position == table.actions.end())
    {
        return std::nullopt;
    }
    return static_cast<size_t>(position - table.actions.begin());
}

std::string
Generator::ApplyTable(const CallExpr& call)
{
    if (m_conditional > 0)
    {
        Unsupported(call.location, "a table apply() inside &&, || or ?:");
    }
    const TableInfo& info = TableOf(call);
    const std::string result = Temp("applied");
    m_pre.push_back(fmt::format("const p4rt::ApplyResult {} = {}(s, md);", result,
                                info.function));
    if (info.mayExit)
    {
        m_pre.push_back("if (s.base.exited) return;");
    }
    return result;
}

std::vector<std::pair<std::string, unsigned>>
Generator::ControlPlaneParams(const ActionDecl& action) const
{
    std::vector<std::pair<std::string, unsigned>> params;
    for (const auto& param : action.params)
    {
        if (param->direction == Direction::None)
        {
            params.emplace_back(param->name, Width(param->type.get()));
        }
    }
    return params;
}

std::string
Generator::ArgsList(const ActionRef& ref)
{
    const auto* action =
        ref.action->resolved ? ref.action->resolved->As<ActionDecl>() : nullptr;
    std::string list = "{";
    bool first = true;
    for (size_t i = 0; i < ref.args.size(); ++i)
    {
        if (action && i < action->params.size() &&
            action->params[i]->direction != Direction::None)
        {
            continue;
        }
        list += (first ? "" : ", ") + BitStringOf(*ref.args[i]->value);
        first = false;
    }
    return list + "}";
}

size_t
Generator::ActionPosition(const TableInfo& table, const ActionRef& ref)
{
    const auto position = ActionPosition(table, ref.action->resolved);
    if (!position)
    {
        Fail(ref.location, "'" + ref.action->name + "' is not in the actions of table '" +
                               table.decl->name + "'");
    }
    return position.value_or(0);
}

std::vector<std::string>
Generator::KeyNames(const TableDecl& table)
{
    std::vector<std::string> names;
    if (const auto* key = table.Key())
    {
        for (const auto& element : key->keys)
        {
            const auto* nameAnnotation = FindAnnotation(element->annotations, "name");
            const auto annotated = nameAnnotation ? nameAnnotation->StringArg() : std::nullopt;
            names.push_back(annotated ? *annotated : ToString(*element->expression));
        }
    }
    return names;
}

void
Generator::EmitTableSchema(const TableInfo& table, CodeWriter& out)
{
    const TableDecl& decl = *table.decl;
    out.Open("");
    out.Line("p4rt::TableSchema schema;");
    out.Line(fmt::format("schema.name = \"{}\";", table.controlPlaneName));
    if (const auto* key = decl.Key())
    {
        const std::vector<std::string> names = KeyNames(decl);
        for (size_t k = 0; k < key->keys.size(); ++k)
        {
            const auto& element = key->keys[k];
            const std::string& name = names[k];
            const unsigned width = Width(element->expression->type);
            if (width == 0)
            {
                Unsupported(element->expression->location,
                            "a table key of type " + TypeText(element->expression->type));
            }
            std::string kind = element->matchKind;
            kind[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kind[0])));
            out.Line(fmt::format("schema.keys.push_back({{\"{}\", {}, p4rt::MatchKind::{}}});",
                                 name, width, kind));
        }
    }
    for (size_t i = 0; i < table.actions.size(); ++i)
    {
        const ActionInfo& action = m_actions[m_actionIndex.at(table.actions[i])];
        std::string params = "{";
        for (const auto& [name, width] : ControlPlaneParams(*table.actions[i]))
        {
            params += fmt::format("{}{{\"{}\", {}}}", params.size() > 1 ? ", " : "", name,
                                  width);
        }
        params += "}";
        out.Line(fmt::format("schema.actions.push_back({{{}, \"{}\", {}, "
                             "p4rt::ActionScope::{}}});",
                             i, action.controlPlaneName, params, table.scopes[i]));
    }
    if (const auto* property = decl.DefaultAction())
    {
        out.Line(fmt::format("schema.defaultAction = {};",
                             ActionPosition(table, *property->defaultAction)));
        out.Line("schema.defaultArgs = " + ArgsList(*property->defaultAction) + ";");
        out.Line(std::string("schema.defaultIsConst = ") +
                 (property->isConst ? "true;" : "false;"));
    }
    else
    {
        out.Line(fmt::format("schema.defaultAction = {};",
                             ActionPosition(table, m_noAction).value_or(0)));
    }
    if (const auto* size = decl.Size())
    {
        const auto value = size->value ? EvalConst(*size->value) : std::nullopt;
        if (!value || *value == 0)
        {
            Fail(size->location, "a table size must be a positive constant");
        }
        else
        {
            out.Line(fmt::format("schema.size = {};", *value));
        }
    }
    if (const auto* entries = decl.Entries())
    {
        const std::vector<std::optional<int32_t>> ranks = EntryRanks(*entries);
        for (size_t i = 0; i < entries->entries.size(); ++i)
        {
            EmitConstEntry(table, *entries->entries[i], ranks[i], out);
        }
        out.Line(std::string("schema.entriesAreConst = ") +
                 (entries->isConst ? "true;" : "false;"));
    }
    out.Line(fmt::format("{} = std::make_unique<p4rt::Table>(std::move(schema));",
                         table.member));
    out.Line(fmt::format("m_control.RegisterTable(*{});", table.member));
    out.Close();
}

std::vector<std::optional<int32_t>>
Generator::EntryRanks(const TableProperty& entries)
{
    std::vector<std::optional<int32_t>> ranks(entries.entries.size());
    std::vector<int64_t> bmv2(entries.entries.size());
    bool annotated = false;
    int64_t highest = 0;
    for (size_t i = 0; i < entries.entries.size(); ++i)
    {
        bmv2[i] = static_cast<int64_t>(i) + 1;
        const Annotation* annotation =
            FindAnnotation(entries.entries[i]->annotations, "priority");
        if (annotation)
        {
            const auto value = annotation->args.size() == 1
                                   ? EvalConst(*annotation->args[0])
                                   : std::nullopt;
            if (!value || *value > INT32_MAX / 2)
            {
                Fail(annotation->location,
                     "@priority takes one constant from 0 to " +
                         std::to_string(INT32_MAX / 2));
                continue;
            }
            bmv2[i] = static_cast<int64_t>(*value);
            annotated = true;
        }
        highest = std::max(highest, bmv2[i]);
    }
    if (annotated)
    {
        for (size_t i = 0; i < ranks.size(); ++i)
        {
            ranks[i] = static_cast<int32_t>(highest + 1 - bmv2[i]);
        }
    }
    return ranks;
}

void
Generator::EmitConstEntry(const TableInfo& table, const ast::TableEntry& entry,
                          std::optional<int32_t> rank, CodeWriter& out)
{
    const auto* keyProperty = table.decl->Key();
    const size_t keyCount = keyProperty ? keyProperty->keys.size() : 0;
    std::vector<const Expression*> keys;
    for (const auto& key : entry.keys)
    {
        keys.push_back(key.get());
    }
    // `(a, b) : action` arrives as one ListExpr key, and so does `{ a } : action` for a
    // table of one key.
    if (keys.size() == 1 && keys[0]->Is<ListExpr>() &&
        (keyCount != 1 || keys[0]->As<ListExpr>()->elements.size() == 1))
    {
        const auto* list = keys[0]->As<ListExpr>();
        keys.clear();
        for (const auto& element : list->elements)
        {
            keys.push_back(element.get());
        }
    }
    if (keys.size() != keyCount)
    {
        Fail(entry.location, fmt::format("this entry has {} keys; the table has {}",
                                         keys.size(), keyCount));
        return;
    }
    std::string match = "{";
    for (size_t i = 0; i < keys.size(); ++i)
    {
        match += (i ? ", " : "") + MatchValueOf(*keys[i], keyProperty->keys[i]->matchKind,
                                                Width(keyProperty->keys[i]->expression->type));
    }
    match += "}";
    std::string priority;
    if (entry.priority)
    {
        const auto value = EvalConst(*entry.priority);
        if (!value)
        {
            Fail(entry.priority->location, "an entry priority must be a constant");
        }
        priority = fmt::format(", {}", value.value_or(0));
    }
    else if (rank)
    {
        priority = fmt::format(", {}", *rank);
    }
    out.Line(fmt::format("schema.entries.push_back({{{}, {}, {}{}}});", match,
                         ActionPosition(table, *entry.action), ArgsList(*entry.action),
                         priority.empty() ? ", std::nullopt" : priority));
}

unsigned
Generator::PrefixLength(const Expression& mask, unsigned width)
{
    const auto value = EvalConst(mask);
    if (!value || width > 64)
    {
        Unsupported(mask.location, "an lpm entry mask that is not a constant of at most 64 bits",
                    "write value/length as a prefix");
        return 0;
    }
    unsigned prefix = 0;
    while (prefix < width && ((*value >> (width - 1 - prefix)) & 1))
    {
        ++prefix;
    }
    const uint64_t expected =
        prefix == 0 ? 0 : (~uint64_t{0} << (64 - prefix)) >> (64 - width);
    if (*value != expected)
    {
        Fail(mask.location, "this lpm mask is not a prefix (ones followed by zeros)");
    }
    return prefix;
}

std::string
Generator::MatchValueOf(const Expression& key, const std::string& matchKind, unsigned width)
{
    if (key.Is<DefaultExpr>() || key.Is<DontCareExpr>())
    {
        return "p4rt::MatchValue::Wildcard()";
    }
    if (const auto* binary = key.As<BinaryExpr>())
    {
        if (binary->op == BinaryOp::Mask)
        {
            std::string value = BitStringOf(*binary->left);
            const std::string mask = BitStringOf(*binary->right);
            // As p4c: value bits outside the mask are a warning, and are masked off.
            const auto bits = EvalConst(*binary->left);
            const auto maskBits = EvalConst(*binary->right);
            if (bits && maskBits && (*bits & ~*maskBits) != 0)
            {
                m_diags.Warning(binary->location,
                                fmt::format("value 0x{:x} has bits outside the mask "
                                            "0x{:x}; they are ignored (the entry matches "
                                            "0x{:x})",
                                            *bits, *maskBits, *bits & *maskBits));
                value = fmt::format("p4rt::BitString({})", Hex(*bits & *maskBits));
            }
            if (matchKind == "lpm")
            {
                return fmt::format("p4rt::MatchValue::Lpm({}, {})", value,
                                   PrefixLength(*binary->right, width));
            }
            return fmt::format("p4rt::MatchValue::Ternary({}, {})", value, mask);
        }
        if (binary->op == BinaryOp::Range)
        {
            Unsupported(binary->location, "a range in a table entry");
            return "p4rt::MatchValue::Wildcard()";
        }
    }
    const std::string value = BitStringOf(key);
    if (matchKind == "lpm")
    {
        return fmt::format("p4rt::MatchValue::Lpm({}, {})", value, width);
    }
    if (matchKind == "ternary")
    {
        return fmt::format("p4rt::MatchValue::Ternary({}, p4rt::BitString::AllOnes({}))",
                           value, width);
    }
    return fmt::format("p4rt::MatchValue::Exact({})", value);
}

void
Generator::EmitTableApply(const TableInfo& table, CodeWriter& out)
{
    m_context = Context::Control;
    out.Line("");
    out.Open(fmt::format("p4rt::ApplyResult {}(State& s, p4rt::V1Metadata& md)",
                         table.function));
    size_t keyBytes = 0;
    std::vector<std::string> packing;
    if (const auto* key = table.decl->Key())
    {
        for (const auto& element : key->keys)
        {
            const Expression& expression = *element->expression;
            const unsigned width = Width(expression.type);
            const size_t bytes = (width + 7) / 8;
            std::string value = Value(expression);
            if (width > 64)
            {
                packing.push_back(fmt::format("std::memcpy(key + {}, {}.Bytes(), {});",
                                              keyBytes, value, bytes));
            }
            else
            {
                if (IsBool(expression.type))
                {
                    value = "uint64_t{" + value + "}";
                }
                packing.push_back(fmt::format("p4rt::StoreBigEndian(key + {}, {}, {});",
                                              keyBytes, value, bytes));
            }
            keyBytes += bytes;
        }
    }
    Flush(out);
    out.Line(keyBytes == 0 ? std::string("uint8_t key[1] = {};")
                           : fmt::format("uint8_t key[{}];", keyBytes));
    for (const auto& line : packing)
    {
        out.Line(line);
    }
    out.Line(fmt::format("const p4rt::TableEntry* entry = {}->Lookup(key);", table.member));
    out.Open("switch (entry->action)");
    for (size_t i = 0; i < table.actions.size(); ++i)
    {
        const ActionDecl& action = *table.actions[i];
        // Directionless parameters come from the entry; the others are bound where the
        // table lists the action (`actions = { a(hdr.x); }`).
        std::vector<std::string> values;
        std::string args;
        bool bound = false;
        size_t word = 0;
        for (const auto& param : action.params)
        {
            if (param->direction != Direction::None)
            {
                values.emplace_back();
                bound = true;
                continue;
            }
            const unsigned width = Width(param->type.get());
            if (width > 64)
            {
                values.push_back(fmt::format(
                    "p4rt::WideBits<{}>::FromWords(&entry->args[{}])", width, word));
                word += (width + 63) / 64;
            }
            else
            {
                values.push_back(fmt::format("entry->args[{}]", word));
                word += 1;
            }
            args += ", " + values.back();
        }
        out.Line(fmt::format("case {}:", i));
        if (bound)
        {
            out.Open("");
            InvokeAction(action, table.refs[i]->args, values, out);
            out.Line("break;");
            out.Close();
            continue;
        }
        out.Line(fmt::format("    {}(s, md{});",
                             m_actions[m_actionIndex.at(&action)].function, args));
        out.Line("    break;");
    }
    out.Close();
    out.Line("return {entry->hit, entry->action};");
    out.Close();
}

} // namespace incsim::p4::backend
