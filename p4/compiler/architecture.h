#ifndef INCSIM_P4_COMPILER_ARCHITECTURE_H
#define INCSIM_P4_COMPILER_ARCHITECTURE_H

// An architecture as data: the package a program instantiates as `main`, its blocks in order
// with the role the target runs each in, what each block parameter's type carries (the packet,
// the program's headers and metadata, the intrinsic metadata), the intrinsic metadata's fields
// and how each crosses the target boundary, and the externs with what each maps to in the
// runtime. The checker and the back end read these instead of knowing v1model's names.
//
// A second architecture (PSA, TNA) is a new Architecture in architecture.cc (listed by
// Architectures()), its .p4 file in p4/include, and for each runtime kind it names that incsim
// does not have yet, the runtime extern and the back end's code for it (backend-externs.cc);
// p4/compiler/README.md, "Adding an architecture".

#include "p4/compiler/ast.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace incsim::p4
{

class Diagnostics;

/// What a block parameter carries, whatever the architecture calls its type.
enum class ArchSlot
{
    Packet,     // packet_in / packet_out
    Headers,    // the program's headers (v1model: the type parameter H)
    Metadata,   // the program's own metadata (v1model: M)
    Intrinsic,  // the architecture's metadata (v1model: standard_metadata_t)
};

/// What an architecture's extern is in incsim's runtime (p4/runtime/externs.h); the back end
/// generates each kind's code, whatever the architecture names the extern.
enum class ExternRuntime
{
    Register,  // object: p4rt::Register, read(out value, index) / write(index, value)
    Counter,   // object: p4rt::Counter, count(index)
    Verify,    // parser: set the parser error when the condition is false
    MarkToDrop,
    Hash,
    UpdateChecksum,
    VerifyChecksum,
    Clone,                     // (type, session)
    ClonePreservingFieldList,  // (type, session, field list)
    ResubmitPreservingFieldList,
    RecirculatePreservingFieldList,
    Truncate,
    LogMsg,  // no effect
    Unsupported,
};

enum class BlockKind
{
    Parser,
    Control,
    Deparser,  // a control that emits the packet (packet_out), and has no tables or actions
};

struct ArchitectureBlock
{
    std::string role;  // what the target runs the block as (v1model: "parser", "ingress", ...)
    BlockKind kind = BlockKind::Control;
};

struct ArchitectureType
{
    std::string name;  // as the architecture's block types name it: "H", "standard_metadata_t"
    ArchSlot slot;
};

/// How an intrinsic metadata field crosses the target boundary (see p4rt::V1Metadata).
struct IntrinsicField
{
    std::string field;   // in the architecture's intrinsic metadata type
    std::string member;  // in the runtime's metadata
    bool loadIngress = false;
    bool loadEgress = false;
    bool storeIngress = false;
    bool storeEgress = false;
};

struct ArchitectureExtern
{
    std::string name;
    ExternRuntime runtime = ExternRuntime::Unsupported;
    /// Unsupported: why, if there is more to say than the name.
    std::string reason = {};
    /// Register and Counter: which type argument is the index type, when the version of the
    /// architecture has one (v1model 20200408: register<T, I>, counter<I>).
    size_t indexTypeArg = 0;
};

struct Architecture
{
    std::string name;     // "v1model"
    std::string package;  // the package `main` instantiates: "V1Switch"
    /// The package's parameters, in order.
    std::vector<ArchitectureBlock> blocks;
    /// The types of the blocks' parameters that carry something for the target.
    std::vector<ArchitectureType> types;
    std::string intrinsicType;  // "standard_metadata_t"
    std::vector<IntrinsicField> intrinsicFields;
    /// Intrinsic fields the generated code writes itself: the parser's error, a failed
    /// checksum verification, the egress port a drop sets (cleared before egress runs) and the
    /// multicast group a drop clears.
    std::string parserErrorField;
    std::string checksumErrorField;
    std::string egressSpecField;
    std::string multicastGroupField;
    std::vector<ArchitectureExtern> externs;
    /// The members of the architecture's hash algorithm enum that incsim implements, with
    /// their p4rt::HashAlgorithm names.
    std::map<std::string, std::string> hashAlgorithms;
    /// A `main` for error messages: "V1Switch(MyParser(), ...) main;".
    std::string exampleMain;

    const ArchitectureExtern* FindExtern(const std::string& externName) const;
    const ArchitectureType* FindType(const std::string& typeName) const;
};

/// v1model (p4/include/v1model.p4) as incsim's runtime implements it.
const Architecture& V1ModelArchitecture();

/// The architectures incsim targets; a program's is the one whose package its `main` is.
const std::vector<const Architecture*>& Architectures();

/// A program's blocks bound to its architecture.
struct ArchitectureBinding
{
    const Architecture* architecture = nullptr;
    const ast::InstanceDecl* main = nullptr;
    /// The block passed for each of architecture->blocks (a ParserDecl or a ControlDecl).
    std::vector<const ast::Declaration*> blocks;
    /// What each block parameter that carries something for the target carries.
    std::map<const ast::Declaration*, ArchSlot> params;
    /// The program's types for the Headers, Metadata and Intrinsic slots.
    std::map<ArchSlot, const ast::StructLikeDecl*> types;

    /// The block playing `role`; null if the architecture has no such role.
    const ast::Declaration* Block(const std::string& role) const;
};

/// Binds the program's `main` to the architecture among `architectures` whose package it
/// instantiates. Errors (at `whole` when there is no `main`) go to `diags`; nullopt then.
std::optional<ArchitectureBinding>
BindArchitecture(const ast::Program& program, const std::vector<const Architecture*>& architectures,
                 const SourceLocation& whole, Diagnostics& diags);

} // namespace incsim::p4

#endif
