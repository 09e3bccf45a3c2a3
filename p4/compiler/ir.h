#ifndef INCSIM_P4_COMPILER_IR_H
#define INCSIM_P4_COMPILER_IR_H

// The mid-end IR: a checked program lowered for the back end (midend.h builds it, DumpIr prints
// it, `incsim p4 compile --dump-ir`).
//
// What is lowered:
//  - the program's blocks are bound to its architecture's roles (architecture.h);
//  - every constant is folded once (ConstantFolder);
//  - actions, tables and extern instances are IR objects, numbered in declaration order, with
//    their control-plane names; a table's action list and a call's target are resolved to them
//    (TableAction, Program::ActionOf/TableOf/ExternOf), externs to the runtime kind that
//    implements them;
//  - the parser is an explicit graph: each state's transition is accept, reject or a state,
//    or a select whose cases (keysets flattened, one per selector) each lead to one;
//  - block-level variables are numbered.
// What is not lowered yet: the statements of states, actions and control bodies and the
// expressions in them are the checker's typed AST (every expression has its resolved `type`,
// every name its `resolved` declaration). The back end generates them from the AST.
//
// Slots for the next lowering passes (midend.cc runs them in this order, before the IR is
// numbered): inlining of functions with a body and of sub-controls and sub-parsers instantiated
// inside blocks (they would add their actions, tables and states to the caller's), header_union
// (to a header per member with a validity invariant) and varbit (to a bit<max> with a length).
// Until then these are located errors ("outside incsim's P4 subset").

#include "p4/compiler/architecture.h"
#include "p4/compiler/ast.h"
#include "p4/compiler/midend-constants.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace incsim::p4::ir
{

struct Action
{
    const ast::ActionDecl* decl = nullptr;
    std::string controlPlaneName;
    /// Whether running it may execute `exit` (directly or through the actions it calls).
    bool mayExit = false;
};

/// A row of a table's action list.
struct TableAction
{
    size_t action = 0;  // in Program::actions
    /// Where the table lists it (with its bound arguments); nullptr for the implicit NoAction.
    const ast::ActionRef* ref = nullptr;
    std::string scope;  // "TableAndDefault", "TableOnly", "DefaultOnly"
};

struct Table
{
    const ast::TableDecl* decl = nullptr;
    const ast::ControlDecl* control = nullptr;
    std::string controlPlaneName;
    std::vector<TableAction> actions;
    bool mayExit = false;
};

struct Extern
{
    const ast::InstanceDecl* decl = nullptr;
    std::string controlPlaneName;
    ExternRuntime runtime = ExternRuntime::Register;
    unsigned width = 0;  // Register: bits per cell
    uint64_t size = 0;
    std::string counterType;  // Counter: "Packets", "Bytes" or "PacketsAndBytes"
};

/// A block-level variable (it lives in the per-packet state).
struct Variable
{
    const ast::VariableDecl* decl = nullptr;
    std::string block;
};

/// Where a transition goes.
struct Target
{
    enum class Kind
    {
        State,
        Accept,
        Reject,
    };
    Kind kind = Kind::Reject;
    size_t state = 0;  // in Program::states, for Kind::State
};

struct SelectCase
{
    const ast::SelectCase* source = nullptr;
    /// One keyset per selector; a single default (or `_`) for the default case.
    std::vector<const ast::Expression*> keysets;
    bool isDefault = false;
    Target target;
};

struct Transition
{
    /// nullptr when the state has no transition statement (it rejects).
    const ast::TransitionStmt* source = nullptr;
    bool isSelect = false;
    Target target;  // when not a select
    std::vector<const ast::Expression*> selectors;
    std::vector<SelectCase> cases;
};

struct State
{
    const ast::ParserState* decl = nullptr;
    Transition transition;
};

struct Program
{
    ArchitectureBinding binding;
    /// The parser and the controls whose objects are collected, in the architecture's order
    /// (each once; the deparser emits and has none).
    const ast::ParserDecl* parser = nullptr;
    std::vector<const ast::ControlDecl*> controls;
    ConstantFolder constants;
    /// The program's own top-level constants, in declaration order (for DumpIr).
    std::vector<const ast::ConstDecl*> constDecls;
    std::vector<Action> actions;
    std::vector<Table> tables;
    std::vector<Extern> externs;
    std::vector<Variable> variables;
    std::vector<State> states;  // of `parser`, in declaration order
    /// core.p4's NoAction, every table's implicit default.
    const ast::ActionDecl* noAction = nullptr;

    std::map<const ast::Declaration*, size_t> actionIndex;
    std::map<const ast::Declaration*, size_t> tableIndex;
    std::map<const ast::Declaration*, size_t> externIndex;
    std::map<const ast::Declaration*, size_t> stateIndex;

    /// The IR object a declaration lowered to; nullptr if it is not one.
    const Action* ActionOf(const ast::Declaration* decl) const;
    const Table* TableOf(const ast::Declaration* decl) const;
    const Extern* ExternOf(const ast::Declaration* decl) const;
};

/// The IR as text: one object per line or block, expressions as P4 with `: type` after each
/// name, member, call and operator, references to IR objects by kind and number
/// (`action#2`). Deterministic: it depends on the program only.
std::string DumpIr(const Program& program);

} // namespace incsim::p4::ir

#endif
