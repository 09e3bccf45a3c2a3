#include "sim/schema/spec-impl.h"

#include <sstream>

namespace incsim
{

using namespace schema_detail;

namespace
{

std::string
EscapeCell(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '|')
        {
            out += "\\|";
        }
        else if (c == '\n')
        {
            out += ' ';
        }
        else
        {
            out += c;
        }
    }
    return out;
}

std::string
Code(const std::string& text)
{
    return "`" + text + "`";
}

std::string
CodeList(const std::vector<std::string>& items)
{
    std::vector<std::string> coded;
    for (const auto& item : items)
    {
        coded.push_back(Code(item));
    }
    return Join(coded, ", ", false);
}

/// "exactly 2 ", "at least 1 ", ... to put before the items of an array in the reference.
std::string
ItemCountPrefix(const Spec::Impl& impl)
{
    std::string count = ItemCountText(impl);
    return count.empty() ? count : count.substr(0, count.size() - std::string("items").size());
}

/// The type of an array's items: "strings", "integers >= 0", "arrays of durations".
std::string
DocTypePlural(const Spec::Impl& impl)
{
    std::string constraint = ConstraintText(impl);
    auto withConstraint = [&](std::string type) {
        return constraint.empty() ? type : type + " " + constraint;
    };
    switch (impl.kind)
    {
    case SpecKind::Duration:
        return withConstraint("durations");
    case SpecKind::Rate:
        return withConstraint("rates");
    case SpecKind::Size:
        return withConstraint("sizes");
    case SpecKind::Integer:
        return withConstraint(impl.even ? "even integers" : "integers");
    case SpecKind::Number:
        return withConstraint("numbers");
    case SpecKind::Bool:
        return "booleans";
    case SpecKind::String:
        return "strings";
    case SpecKind::Enum:
        if (!impl.noun.empty())
        {
            return impl.noun + " names";
        }
        return "values from " + CodeList(impl.choices);
    case SpecKind::Distribution:
        return impl.unit == SpecKind::Duration ? "duration distributions"
                                               : "number distributions";
    case SpecKind::Array:
        return "arrays of " + ItemCountPrefix(impl) + DocTypePlural(Spec::Impl::Of(*impl.element));
    case SpecKind::Object:
        return "objects";
    }
    return "";
}

std::string
DocType(const Spec::Impl& impl)
{
    std::string constraint = ConstraintText(impl);
    auto withConstraint = [&](std::string type) {
        return constraint.empty() ? type : type + " " + constraint;
    };
    switch (impl.kind)
    {
    case SpecKind::Duration:
        return withConstraint("duration");
    case SpecKind::Rate:
        return withConstraint("rate");
    case SpecKind::Size:
        return withConstraint("size");
    case SpecKind::Integer:
        return withConstraint(impl.even ? "even integer" : "integer");
    case SpecKind::Number:
        return withConstraint("number");
    case SpecKind::Bool:
        return "boolean";
    case SpecKind::String:
        return impl.namesFile ? "file name" : "string";
    case SpecKind::Enum:
        if (!impl.noun.empty())
        {
            return impl.noun + " name";
        }
        return "one of " + CodeList(impl.choices);
    case SpecKind::Distribution:
        return impl.unit == SpecKind::Duration ? "duration distribution" : "number distribution";
    case SpecKind::Array:
        return "array of " + ItemCountPrefix(impl) + DocTypePlural(Spec::Impl::Of(*impl.element));
    case SpecKind::Object:
        return "object";
    }
    return "";
}

const Spec*
FindSelectorSpec(const Spec::Impl& object, const std::string& selector)
{
    const Spec::Impl* current = &object;
    const Spec* found = nullptr;
    for (const auto& key : SplitSelector(selector))
    {
        const auto* field = current->FindField(key);
        if (field == nullptr || !field->spec)
        {
            return nullptr;
        }
        found = &*field->spec;
        current = &Spec::Impl::Of(*found);
    }
    return found;
}

std::string
Dotted(const std::string& prefix, const std::string& name)
{
    std::string dotted = name;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    return prefix.empty() ? dotted : prefix + "." + dotted;
}

/// One heading, its text and the field table of an object; nested objects, array items and
/// dependent fields follow as sections of the same level, named by their dotted path.
void
WriteMarkdownSection(std::ostringstream& out,
                     const Spec& spec,
                     const std::string& heading,
                     const std::string& doc,
                     const std::string& prefix,
                     int level)
{
    const Spec::Impl& impl = Spec::Impl::Of(spec);
    out << std::string(level, '#') << ' ' << heading << "\n\n";
    if (!doc.empty())
    {
        out << doc << "\n\n";
    }
    if (impl.kind != SpecKind::Object)
    {
        out << "Type: " << DocType(impl) << ".\n\n";
        return;
    }
    if (impl.fields.empty())
    {
        out << "No keys.\n\n";
        return;
    }
    for (const auto& group : impl.exactlyOne)
    {
        out << "Exactly one of " << CodeList(group) << " must be given.\n\n";
    }
    out << "| Key | Type | Default | Meaning |\n";
    out << "|-----|------|---------|---------|\n";
    for (const auto& field : impl.fields)
    {
        std::string type = field.choose ? "object" : DocType(Spec::Impl::Of(*field.spec));
        std::string what = LastSegment(field.whenSelector);
        std::string def;
        if (field.required)
        {
            def = "required";
        }
        else if (!field.requiredFor.empty())
        {
            def = "required for " + what + " " + CodeList(field.requiredFor);
        }
        else if (field.defaultValue)
        {
            def = Code(field.defaultValue->dump());
        }
        else
        {
            def = "—";
        }
        std::string meaning = field.doc;
        if (field.appliesTo)
        {
            meaning += " Only for " + what + " " + CodeList(*field.appliesTo) + ".";
        }
        if (field.spec && Spec::Impl::Of(*field.spec).kind == SpecKind::Enum &&
            !Spec::Impl::Of(*field.spec).noun.empty())
        {
            const auto& choices = Spec::Impl::Of(*field.spec).choices;
            meaning += " Known: " + (choices.empty() ? std::string("none") : CodeList(choices)) +
                       ".";
        }
        if (field.choose)
        {
            meaning += " Its keys depend on " + Code(Dotted(prefix, field.selector)) + ".";
        }
        out << "| " << Code(field.name) << " | " << EscapeCell(type) << " | " << EscapeCell(def)
            << " | " << EscapeCell(meaning) << " |\n";
    }
    out << "\n";

    // Sections below the first stay at one level, named by their full dotted path, so that
    // deep nesting does not run out of heading levels.
    int childLevel = level < 3 ? level + 1 : level;
    for (const auto& field : impl.fields)
    {
        std::string dotted = Dotted(prefix, field.name);
        if (field.choose)
        {
            const Spec* selector = FindSelectorSpec(impl, field.selector);
            if (selector == nullptr)
            {
                continue;
            }
            for (const auto& choice : Spec::Impl::Of(*selector).choices)
            {
                WriteMarkdownSection(out,
                                     field.choose(choice),
                                     Code(dotted) + " when " +
                                         Code(Dotted(prefix, field.selector)) + " is " +
                                         Code(choice),
                                     "",
                                     dotted,
                                     childLevel);
            }
            continue;
        }
        const Spec::Impl& child = Spec::Impl::Of(*field.spec);
        if (child.kind == SpecKind::Object)
        {
            WriteMarkdownSection(out, *field.spec, Code(dotted), field.doc, dotted, childLevel);
        }
        else if (child.kind == SpecKind::Array &&
                 Spec::Impl::Of(*child.element).kind == SpecKind::Object)
        {
            WriteMarkdownSection(out,
                                 *child.element,
                                 Code(dotted + "[]"),
                                 field.doc + " Each item is an object:",
                                 dotted + "[]",
                                 childLevel);
        }
    }
}

} // namespace

std::string
Spec::Markdown(const std::string& title) const
{
    std::ostringstream out;
    WriteMarkdownSection(out, *this, title, "", "", 2);
    return out.str();
}

} // namespace incsim
