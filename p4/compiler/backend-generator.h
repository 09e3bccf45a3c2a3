#ifndef INCSIM_P4_COMPILER_BACKEND_GENERATOR_H
#define INCSIM_P4_COMPILER_BACKEND_GENERATOR_H

// The C++ back end's shared context (internal to the back end; the interface is cpp-backend.h).
// One Generator holds what every construct's code needs: the program, the diagnostics, the
// mid-end's IR (midend.h) with the C++ names the back end gives its objects, and the state of
// the function being generated. Its member functions are defined one file per construct, as
// grouped below.

#include "p4/compiler/architecture.h"
#include "p4/compiler/ast.h"
#include "p4/compiler/code-writer.h"
#include "p4/compiler/contract.h"
#include "p4/compiler/cpp-backend.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/midend.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace incsim::p4::backend
{

using namespace ast;

inline std::string
Hex(uint64_t value)
{
    return fmt::format("UINT64_C(0x{:x})", value);
}

/// Where generated statements run: which locals exist and what `exit` and parser errors do.
enum class Context
{
    Parser,
    Control,
    Action,
    Deparser,
};

class Generator
{
  public:
    Generator(const Program& program, const CppBackendOptions& options, Diagnostics& diags)
        : m_program(program),
          m_options(options),
          m_diags(diags)
    {
    }

    std::optional<CppCode> Run();
    std::optional<std::string> RunLibrary();

  private:
    ContractInput MakeContractInput(bool isProgram) const;
    void Fail(const SourceLocation& location, const std::string& message);
    void Unsupported(const SourceLocation& location, const std::string& what,
                     const std::string& why = "");

    // The IR's externs, actions and tables as the code generation reads them, with their C++
    // names (filled from the IR by Collect). A next step is to read the ir:: objects directly
    // and keep only the names here.
    struct ExternInfo
    {
        ExternRuntime kind = ExternRuntime::Register;
        std::string controlPlaneName;
        std::string member;
        unsigned width = 0;
        uint64_t size = 0;
        std::string counterType;
    };

    struct ActionInfo
    {
        const ActionDecl* decl = nullptr;
        std::string controlPlaneName;
        std::string function;
        bool mayExit = false;
    };

    struct TableInfo
    {
        const TableDecl* decl = nullptr;
        std::string controlPlaneName;
        std::string member;
        std::string function;
        std::vector<const ActionDecl*> actions;
        /// Where the table lists each action (its bound arguments); nullptr for the implicit
        /// NoAction.
        std::vector<const ActionRef*> refs;
        std::vector<std::string> scopes;
        bool mayExit = false;
    };

    /// A hash or checksum input: a zeroed byte buffer and the stores that fill it.
    struct PackedInput
    {
        std::string buffer;
        size_t bits = 0;
        std::vector<std::string> stores;
    };

    // -----------------------------------------------------------------------------------
    // backend-types.cc: Types
    // -----------------------------------------------------------------------------------

    static unsigned Width(const Type* type) { return ScalarWidth(type); }
    static bool IsSigned(const Type* type) { return IsSignedScalar(type); }
    static bool IsBool(const Type* type);
    static bool IsInfInt(const Type* type);
    /// A scalar held in a uint64_t (everything up to 64 bits but bool).
    static bool IsNarrow(const Type* type);
    static bool IsWide(const Type* type) { return Width(type) > 64; }
    static const StructLikeDecl* StructOf(const Type* type);
    std::string StructName(const StructLikeDecl& decl) const { return decl.name + "_"; }
    /// The C++ type of a struct or header field, or of a state member.
    std::string StorageType(const Type* type, const SourceLocation& where);
    /// The C++ type of a local variable or a parameter.
    std::string ValueType(const Type* type, const SourceLocation& where);
    /// Bits of a header (its fields must be fixed-width scalars and add up to whole bytes).
    unsigned HeaderBits(const StructLikeDecl& header);
    unsigned HeaderBytes(const StructLikeDecl& header);
    void EmitTypes(CodeWriter& out);
    /// ExtractHeader and EmitHeader for one header type. Fields are grouped into runs that
    /// start and end on byte boundaries (version ++ ihl, flags ++ fragOffset) and span at most
    /// 64 bits, so each run is one big-endian load or store plus shifts; a run that cannot be
    /// closed within 64 bits falls back to bit-level access per field.
    void EmitHeaderCodec(const StructLikeDecl& header, CodeWriter& out);
    void EmitState(CodeWriter& out);
    static std::string TypeText(const Type* type) { return type ? ToString(*type) : "unknown"; }

    // -----------------------------------------------------------------------------------
    // backend-binding.cc: the IR's objects named for C++, the architecture's slots bound
    // -----------------------------------------------------------------------------------

    /// Lowers the program (midend.h) and names what the IR numbered: actions, tables,
    /// externs, block variables, parser states.
    void Collect();
    /// A location naming the program's file, for errors about the program as a whole.
    SourceLocation WholeProgram() const;
    /// The blocks the program class runs, by v1model's roles, and the state member each
    /// block parameter stands for.
    void BindArchitecture();
    const Architecture& Arch() const { return *m_ir->binding.architecture; }

    // -----------------------------------------------------------------------------------
    // backend-constants.cc: Constants
    // -----------------------------------------------------------------------------------

    /// The mid-end's folded value (ConstantFolder::Evaluate).
    std::optional<uint64_t> EvalConst(const Expression& expression) const
    {
        return m_folder->Evaluate(expression);
    }
    /// A constant as a p4rt::BitString expression (for table schemas), wide literals too.
    std::string BitStringOf(const Expression& expression);
    static std::string BytesInitializer(const BigUint& value);
    /// A wide constant: hoisted to a namespace-scope object so it is built once.
    std::string WideConstant(const BigUint& value, unsigned width);

    // -----------------------------------------------------------------------------------
    // backend-expressions.cc: Expressions
    // -----------------------------------------------------------------------------------

    std::string Temp(const char* stem) { return fmt::format("{}{}", stem, m_tempCount++); }
    /// `value` (a uint64_t pattern) reduced to `width` bits, unless it already is.
    static std::string Masked(const std::string& value, unsigned width);
    /// The value of `expression` as a `width`-bit operand: InfInt literals are reduced.
    std::string Operand(const Expression& expression, unsigned width);
    std::string Value(const Expression& expression);
    std::string NameValue(const NameExpr& name);
    /// A header stack's element at a run-time position (next/last), as an lvalue.
    static std::string StackElement(const std::string& stack, const std::string& member);
    std::string MemberValue(const MemberExpr& member);
    std::string IndexValue(const IndexExpr& index);
    std::string SliceValue(const SliceExpr& slice);
    std::string UnaryValue(const UnaryExpr& unary);
    std::string BinaryValue(const BinaryExpr& binary);
    std::string CastValue(const CastExpr& cast);
    std::string CallValue(const CallExpr& call);
    bool IsPacketParam(const Expression& expression) const;
    std::string LValue(const Expression& expression);
    /// `value`, converted for storing into something of type `to`.
    std::string ValueFor(const Expression& value, const Type* to);
    /// Statements for `target = value`.
    void Assign(const Expression& target, const Expression& value, CodeWriter& out);
    /// Writes the hoisted statements (table applies, lookaheads) before the current one.
    void Flush(CodeWriter& out);

    // -----------------------------------------------------------------------------------
    // backend-statements.cc: Statements
    // -----------------------------------------------------------------------------------

    void Statement(const ast::Statement& statement, CodeWriter& out);
    void LocalDeclaration(const Declaration& declaration, CodeWriter& out);
    void Switch(const SwitchStmt& switchStmt, CodeWriter& out);
    /// The argument bound to parameter `i` of a call, by position or name.
    static const Expression* Argument(const CallExpr& call, const PtrList<Parameter>& params,
                                      size_t i);
    /// The argument for params[i]: named, or at position i.
    static const Expression* Argument(const PtrList<ast::Argument>& args,
                                      const PtrList<Parameter>& params, size_t i);
    void CallStatement(const CallExpr& call, CodeWriter& out);
    void ActionCall(const CallExpr& call, const ActionDecl& action, CodeWriter& out);
    /// Calls `action` in a block of its own: a parameter with a non-empty `values[i]` gets
    /// that C++ value (a table entry's control-plane argument), the others their argument in
    /// `args`, out and inout ones through a temporary copied back after the call.
    void InvokeAction(const ActionDecl& action, const PtrList<ast::Argument>& args,
                      const std::vector<std::string>& values, CodeWriter& out);
    void MethodCall(const CallExpr& call, const MemberExpr& member, CodeWriter& out);
    void EmitAction(const ActionInfo& action, CodeWriter& out);
    /// Block-level variables live in the state (zeroed by Parse); their initializers run each
    /// time the block starts.
    void InitializeBlockVariables(const PtrList<Declaration>& locals, CodeWriter& out);
    void EmitControl(const ControlDecl& control, CodeWriter& out);

    // -----------------------------------------------------------------------------------
    // backend-externs.cc: Extern functions (hash
    // -----------------------------------------------------------------------------------

    void ExternFunction(const CallExpr& call, const FunctionDecl& function, CodeWriter& out);
    std::string HashAlgorithm(const Expression& algorithm);
    PackedInput Pack(const Expression& data);
    static void EmitPacked(const PackedInput& input, CodeWriter& out);
    /// The unreduced hash of a packed input. Identity over whole bytes, up to 8 of them, is
    /// the packed value itself.
    static std::string HashOf(const std::string& algorithm, const PackedInput& input);
    /// Stores that pack a field list, a header, a struct or a single value into the bytes
    /// `buffer` (zeroed) as BMv2 hashes them: bits concatenated MSB-first, the last byte padded
    /// at its low end. Offsets are known here, so each field is one store. Returns the bits.
    size_t PackData(const Expression& data, const std::string& buffer,
                    std::vector<std::string>& lines, size_t offset = 0);
    size_t PackFields(const std::string& object, const StructLikeDecl& decl,
                      const std::string& buffer, std::vector<std::string>& lines, size_t offset);
    static size_t PackValue(const std::string& value, unsigned width, const std::string& buffer,
                            std::vector<std::string>& lines, size_t offset);

    // -----------------------------------------------------------------------------------
    // backend-tables.cc: Tables
    // -----------------------------------------------------------------------------------

    static bool IsTableApply(const CallExpr& call);
    /// The table a `t.apply()` call applies (IsTableApply(call) must hold).
    const TableInfo& TableOf(const CallExpr& call) const;
    /// Where `action` is in the table's action list (its ActionId), if it is there.
    static std::optional<size_t> ActionPosition(const TableInfo& table, const Declaration* action);
    /// Applies the table now (hoisted before the statement being generated); returns the
    /// name of the p4rt::ApplyResult.
    std::string ApplyTable(const CallExpr& call);
    std::vector<std::pair<std::string, unsigned>>
    ControlPlaneParams(const ActionDecl& action) const;
    /// The control-plane arguments of a default action or an entry: those of the action's
    /// directionless parameters (the directional ones are bound by the table's action list).
    std::string ArgsList(const ActionRef& ref);
    size_t ActionPosition(const TableInfo& table, const ActionRef& ref);
    /// The control plane's names of a table's key fields: @name, or the expression as written.
    static std::vector<std::string> KeyNames(const TableDecl& table);
    void EmitTableSchema(const TableInfo& table, CodeWriter& out);
    /// BMv2's ranks for a table whose entries carry `@priority(N)`: an entry's priority is N,
    /// or else its position from 1, and the lowest wins (p4c's BMv2 back end). Turned into the
    /// runtime's convention, where the highest wins. Without @priority, no ranks: the runtime
    /// ranks entries by order (first wins).
    std::vector<std::optional<int32_t>> EntryRanks(const TableProperty& entries);
    void EmitConstEntry(const TableInfo& table, const ast::TableEntry& entry,
                        std::optional<int32_t> rank, CodeWriter& out);
    /// The prefix length of an lpm entry's mask (`v &&& 0xffffff00`): it must be ones then
    /// zeros in the key's width.
    unsigned PrefixLength(const Expression& mask, unsigned width);
    std::string MatchValueOf(const Expression& key, const std::string& matchKind, unsigned width);
    void EmitTableApply(const TableInfo& table, CodeWriter& out);

    // -----------------------------------------------------------------------------------
    // backend-parser.cc: The parser
    // -----------------------------------------------------------------------------------

    std::string Lookahead(const CallExpr& call);
    std::string ParserError(const std::string& error);
    std::string NeedBytes(const std::string& bytes);
    void PacketCall(const CallExpr& call, const std::string& method, CodeWriter& out);
    void Extract(const Expression& target, CodeWriter& out);
    void EmitParser(CodeWriter& out);
    std::string StateTarget(const ir::Target& target);
    void Transition(const ir::Transition& transition, CodeWriter& out);
    std::string KeysetTest(const Expression& key, const std::string& selector, unsigned width);

    // -----------------------------------------------------------------------------------
    // backend-deparser.cc: The deparser
    // -----------------------------------------------------------------------------------

    void Emit(const Expression& value, CodeWriter& out);
    void EmitObject(const std::string& object, const Type* type, const SourceLocation& where,
                    CodeWriter& out);
    void EmitDeparser(CodeWriter& out);

    // -----------------------------------------------------------------------------------
    // backend-program.cc: The program class
    // -----------------------------------------------------------------------------------

    void EmitProgramClass(CodeWriter& out);
    void EmitMembers(CodeWriter& out);
    void EmitConstructor(CodeWriter& out);
    void EmitEntryPoints(CodeWriter& out);
    void CollectFieldLists(const StructLikeDecl& decl, const std::string& prefix,
                           std::map<uint64_t, std::vector<std::string>>& lists);
    const StructField* SmField(const std::string& name) const { return m_smType->FindField(name); }
    void LoadMetadata(CodeWriter& out, bool ingress);
    void StoreMetadata(CodeWriter& out, bool ingress);
    void EmitMetadataFields(CodeWriter& out);
    void EmitReset(CodeWriter& out);
    std::string HeaderText() const;
    std::string SourcePrologue() const;
    std::string SourceEpilogue(uint64_t hash) const;

    // -----------------------------------------------------------------------------------
    // State
    // -----------------------------------------------------------------------------------

    const Program& m_program;
    const CppBackendOptions& m_options;
    Diagnostics& m_diags;
    bool m_failed = false;
    const ParserDecl* m_parser = nullptr;
    const ControlDecl* m_verify = nullptr;
    const ControlDecl* m_ingress = nullptr;
    const ControlDecl* m_egress = nullptr;
    const ControlDecl* m_compute = nullptr;
    const ControlDecl* m_deparser = nullptr;
    std::vector<const ControlDecl*> m_controls;
    const StructLikeDecl* m_hdrType = nullptr;
    const StructLikeDecl* m_metaType = nullptr;
    const StructLikeDecl* m_smType = nullptr;
    std::set<const Declaration*> m_packetParams;
    const ActionDecl* m_noAction = nullptr;
    /// The program lowered (null for a library, which has only its constants folded).
    std::unique_ptr<ir::Program> m_ir;
    ConstantFolder m_libraryConstants;
    const ConstantFolder* m_folder = &m_libraryConstants;
    std::map<const Declaration*, std::string> m_names;
    std::vector<std::pair<const VariableDecl*, std::string>> m_blockVariables;
    std::map<const Declaration*, std::string> m_stateLabels;
    std::vector<ActionInfo> m_actions;
    std::map<const Declaration*, size_t> m_actionIndex;
    std::vector<TableInfo> m_tables;
    std::map<const Declaration*, size_t> m_tableIndex;
    std::map<const Declaration*, ExternInfo> m_externs;
    std::vector<const InstanceDecl*> m_externOrder;
    Context m_context = Context::Control;
    std::vector<std::string> m_pre;
    int m_conditional = 0;
    unsigned m_tempCount = 0;
    unsigned m_maxEmitBytes = 0;
    unsigned m_wideConstantCount = 0;
    CodeWriter m_constants;
};

} // namespace incsim::p4::backend

#endif
