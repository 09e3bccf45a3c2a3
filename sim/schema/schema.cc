#include "sim/schema/spec-impl.h"

#include <stdexcept>
#include <utility>

namespace incsim
{

using namespace schema_detail;

Spec::Spec(SpecKind kind)
    : m_impl(std::make_shared<Impl>(kind))
{
}

Spec
Spec::Duration()
{
    return Spec(SpecKind::Duration);
}

Spec
Spec::Rate()
{
    return Spec(SpecKind::Rate);
}

Spec
Spec::Size()
{
    return Spec(SpecKind::Size);
}

Spec
Spec::Integer()
{
    return Spec(SpecKind::Integer);
}

Spec
Spec::Number()
{
    return Spec(SpecKind::Number);
}

Spec
Spec::Bool()
{
    return Spec(SpecKind::Bool);
}

Spec
Spec::String()
{
    return Spec(SpecKind::String);
}

Spec
Spec::Enum(std::vector<std::string> choices)
{
    Spec spec(SpecKind::Enum);
    spec.m_impl->choices = std::move(choices);
    return spec;
}

Spec
Spec::Distribution(SpecKind unit)
{
    if (unit != SpecKind::Duration && unit != SpecKind::Number)
    {
        throw std::invalid_argument("Spec::Distribution: unit must be Duration or Number");
    }
    Spec spec(SpecKind::Distribution);
    spec.m_impl->unit = unit;
    return spec;
}

Spec
Spec::Array(Spec element)
{
    Spec spec(SpecKind::Array);
    spec.m_impl->element = std::move(element);
    return spec;
}

Spec
Spec::Object()
{
    return Spec(SpecKind::Object);
}

Spec&
Spec::Min(double value)
{
    Impl::Mutable(*this).min = value;
    return *this;
}

Spec&
Spec::Max(double value)
{
    Impl::Mutable(*this).max = value;
    return *this;
}

Spec&
Spec::Above(double value)
{
    Impl::Mutable(*this).above = value;
    return *this;
}

Spec&
Spec::Below(double value)
{
    Impl::Mutable(*this).below = value;
    return *this;
}

Spec&
Spec::Because(std::string reason)
{
    Impl::Mutable(*this).because = std::move(reason);
    return *this;
}

Spec&
Spec::BelowValueAt(std::string pointer)
{
    Impl::Mutable(*this).belowPointer = std::move(pointer);
    return *this;
}

Spec&
Spec::Even()
{
    Impl::Mutable(*this).even = true;
    return *this;
}

Spec&
Spec::MinItems(size_t n)
{
    Impl::Mutable(*this).minItems = n;
    return *this;
}

Spec&
Spec::MaxItems(size_t n)
{
    Impl::Mutable(*this).maxItems = n;
    return *this;
}

Spec&
Spec::KnownAs(std::string noun)
{
    Impl::Mutable(*this).noun = std::move(noun);
    return *this;
}

Spec&
Spec::NamesFile()
{
    Impl::Mutable(*this).namesFile = true;
    return *this;
}

Spec&
Spec::Field(std::string name, Spec spec, std::string doc, nlohmann::json defaultValue)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    field.defaultValue = std::move(defaultValue);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::RequiredField(std::string name, Spec spec, std::string doc)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    field.required = true;
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::OptionalField(std::string name, Spec spec, std::string doc)
{
    Impl::FieldDef field;
    field.name = std::move(name);
    field.spec = std::move(spec);
    field.doc = std::move(doc);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::ExactlyOneOf(std::vector<std::string> names)
{
    Impl::Mutable(*this).exactlyOne.push_back(std::move(names));
    return *this;
}

Spec&
Spec::DependentField(std::string valueField,
                     std::string selector,
                     std::function<Spec(const std::string&)> choose,
                     std::string doc,
                     nlohmann::json defaultValue)
{
    Impl::FieldDef field;
    field.name = std::move(valueField);
    field.selector = std::move(selector);
    field.choose = std::move(choose);
    field.doc = std::move(doc);
    field.defaultValue = std::move(defaultValue);
    Impl::Mutable(*this).fields.push_back(std::move(field));
    return *this;
}

Spec&
Spec::OnlyWhen(const std::string& name, std::string selector, std::vector<std::string> values)
{
    Impl::FieldDef* field = Impl::Mutable(*this).FindField(name);
    if (field == nullptr || (!field->whenSelector.empty() && field->whenSelector != selector))
    {
        throw std::logic_error("Spec::OnlyWhen: declare field '" + name + "' first");
    }
    field->whenSelector = std::move(selector);
    field->appliesTo = std::move(values);
    return *this;
}

Spec&
Spec::RequiredWhen(const std::string& name, std::string selector, std::vector<std::string> values)
{
    Impl::FieldDef* field = Impl::Mutable(*this).FindField(name);
    if (field == nullptr || (!field->whenSelector.empty() && field->whenSelector != selector))
    {
        throw std::logic_error("Spec::RequiredWhen: declare field '" + name + "' first");
    }
    field->whenSelector = std::move(selector);
    field->requiredFor = std::move(values);
    return *this;
}

SpecKind
Spec::Kind() const
{
    return m_impl->kind;
}

std::string
Spec::Expected() const
{
    const Impl& impl = *m_impl;
    std::string base = BasePhrase(impl);
    if (impl.kind == SpecKind::Integer && impl.even)
    {
        base = "an even integer";
    }
    std::string constraint;
    switch (impl.kind)
    {
    case SpecKind::Duration:
    case SpecKind::Rate:
    case SpecKind::Size:
    case SpecKind::Integer:
    case SpecKind::Number:
        constraint = ConstraintText(impl);
        break;
    case SpecKind::Array:
        constraint = ItemCountText(impl);
        constraint = constraint.empty() ? constraint : "of " + constraint;
        break;
    default:
        break;
    }
    return constraint.empty() ? base : base + " " + constraint;
}

namespace
{

void
CollectEnums(const Spec& spec, const std::string& path, const nlohmann::json* resolved,
             std::vector<std::pair<std::string, std::vector<std::string>>>& out)
{
    const Spec::Impl& impl = Spec::Impl::Of(spec);
    switch (impl.kind)
    {
    case SpecKind::Enum:
        if (impl.noun.empty())
        {
            out.emplace_back(path, impl.choices);
        }
        break;
    case SpecKind::Array: {
        const bool hasItem = resolved != nullptr && resolved->is_array() && !resolved->empty();
        CollectEnums(*impl.element, path + "/0", hasItem ? &(*resolved)[0] : nullptr, out);
        break;
    }
    case SpecKind::Object:
        for (const auto& field : impl.fields)
        {
            const bool present = resolved != nullptr && resolved->is_object() &&
                                 resolved->contains(field.name);
            const nlohmann::json* value = present ? &(*resolved)[field.name] : nullptr;
            if (field.spec)
            {
                CollectEnums(*field.spec, JoinPath(path, field.name), value, out);
                continue;
            }
            const nlohmann::json* selector =
                resolved != nullptr ? LookupSelector(*resolved, field.selector) : nullptr;
            if (value != nullptr && selector != nullptr && selector->is_string())
            {
                CollectEnums(field.choose(selector->get<std::string>()),
                             JoinPath(path, field.name), value, out);
            }
        }
        break;
    default:
        break;
    }
}

} // namespace

std::vector<std::pair<std::string, std::vector<std::string>>>
Spec::EnumFields(const nlohmann::json* resolved) const
{
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    CollectEnums(*this, "", resolved, out);
    return out;
}

} // namespace incsim
