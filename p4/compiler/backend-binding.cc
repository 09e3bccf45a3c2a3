// The back end's view of the IR: the objects the mid-end numbered get their C++ names
// (Action3_set_port, table0_route, register1_r, local2_x, state4_parse_ipv4), and the
// architecture's blocks and slots their places in the program class and the per-packet state.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::Collect()
{
    m_ir = LowerProgram(m_program, WholeProgram(), m_diags);
    if (!m_ir)
    {
        m_failed = true;
        return;
    }
    m_folder = &m_ir->constants;
    BindArchitecture();
    if (m_failed)
    {
        return;
    }
    m_noAction = m_ir->noAction;
    for (size_t i = 0; i < m_ir->actions.size(); ++i)
    {
        const ir::Action& action = m_ir->actions[i];
        m_actionIndex[action.decl] = i;
        m_actions.push_back({action.decl, action.controlPlaneName,
                             fmt::format("Action{}_{}", i, action.decl->name), action.mayExit});
    }
    for (size_t i = 0; i < m_ir->tables.size(); ++i)
    {
        const ir::Table& table = m_ir->tables[i];
        TableInfo info;
        info.decl = table.decl;
        info.controlPlaneName = table.controlPlaneName;
        info.member = fmt::format("table{}_{}", i, table.decl->name);
        info.function = fmt::format("Apply{}_{}", i, table.decl->name);
        for (const ir::TableAction& row : table.actions)
        {
            info.actions.push_back(m_ir->actions[row.action].decl);
            info.refs.push_back(row.ref);
            info.scopes.push_back(row.scope);
        }
        info.mayExit = table.mayExit;
        m_tableIndex[table.decl] = i;
        m_tables.push_back(info);
    }
    for (size_t i = 0; i < m_ir->externs.size(); ++i)
    {
        const ir::Extern& instance = m_ir->externs[i];
        ExternInfo info;
        info.kind = instance.runtime;
        info.controlPlaneName = instance.controlPlaneName;
        info.member = fmt::format("{}{}_{}",
                                  instance.runtime == ExternRuntime::Register ? "register"
                                                                              : "counter",
                                  i, instance.decl->name);
        info.width = instance.width;
        info.size = instance.size;
        info.counterType = instance.counterType;
        m_externs.emplace(instance.decl, info);
        m_externOrder.push_back(instance.decl);
    }
    for (size_t i = 0; i < m_ir->variables.size(); ++i)
    {
        const ast::VariableDecl* variable = m_ir->variables[i].decl;
        const std::string member = fmt::format("local{}_{}", i, variable->name);
        m_blockVariables.push_back({variable, member});
        m_names[variable] = "s." + member;
    }
    for (size_t i = 0; i < m_ir->states.size(); ++i)
    {
        m_stateLabels[m_ir->states[i].decl] =
            fmt::format("state{}_{}", i, m_ir->states[i].decl->name);
    }
}

SourceLocation
Generator::WholeProgram() const
{
    return {m_diags.Sources().Get(m_options.sourcePath)};
}

void
Generator::BindArchitecture()
{
    const ArchitectureBinding& binding = m_ir->binding;
    // The program class implements v1model's target interface (p4rt::V1Program), so it runs
    // an architecture with these roles.
    const auto block = [&](const char* role) { return binding.Block(role); };
    m_parser = block("parser") ? block("parser")->As<ParserDecl>() : nullptr;
    m_verify = block("verify_checksum") ? block("verify_checksum")->As<ControlDecl>() : nullptr;
    m_ingress = block("ingress") ? block("ingress")->As<ControlDecl>() : nullptr;
    m_egress = block("egress") ? block("egress")->As<ControlDecl>() : nullptr;
    m_compute =
        block("compute_checksum") ? block("compute_checksum")->As<ControlDecl>() : nullptr;
    m_deparser = block("deparser") ? block("deparser")->As<ControlDecl>() : nullptr;
    m_controls = m_ir->controls;
    const InstanceDecl& main = *binding.main;
    if (!m_parser || !m_verify || !m_ingress || !m_egress || !m_compute || !m_deparser)
    {
        Fail(main.location, "package '" + binding.architecture->package +
                                "': incsim's C++ target runs v1model's parser, verify_checksum, "
                                "ingress, egress, compute_checksum and deparser blocks");
        return;
    }
    // Each block parameter names its slot's part of the per-packet state.
    for (const auto& [param, slot] : binding.params)
    {
        switch (slot)
        {
        case ArchSlot::Packet:
            m_packetParams.insert(param);
            break;
        case ArchSlot::Headers:
            m_names[param] = "s.hdr";
            break;
        case ArchSlot::Metadata:
            m_names[param] = "s.meta";
            break;
        case ArchSlot::Intrinsic:
            m_names[param] = "s.sm";
            break;
        }
    }
    const auto type = [&](ArchSlot slot) {
        const auto found = binding.types.find(slot);
        return found != binding.types.end() ? found->second : nullptr;
    };
    m_hdrType = type(ArchSlot::Headers);
    m_metaType = type(ArchSlot::Metadata);
    m_smType = type(ArchSlot::Intrinsic);
    if (!m_hdrType || !m_metaType || !m_smType)
    {
        Fail(main.location, "internal: could not bind the headers, metadata and "
                            "standard metadata types");
    }
}

} // namespace incsim::p4::backend
