#ifndef INCSIM_P4RT_V1MODEL_H
#define INCSIM_P4RT_V1MODEL_H

// The interface between a v1model target (the simulated switch, or the STF runner) and the
// C++ that incsim's compiler generates from a P4 program.
//
// A packet's pass through the switch is split the way the traffic manager splits it:
//
//   Parse(bytes) -> Ingress() -> [traffic manager] -> Egress() -> Deparse(bytes)
//
// Between Parse and Deparse the packet stays parsed, as in BMv2: its headers, user metadata
// and standard metadata live in a per-packet state area of StateSize() bytes that the target
// carries with the packet (multicast replicas copy it with memcpy; it is trivially copyable).
// The packet bytes are not touched until Deparse, so the original packet is still there for
// resubmit and ingress-to-egress clones.
//
// Standard metadata fields with a meaning for the target cross the boundary in V1Metadata;
// which P4 field plays which role is the compiler's business (it reads v1model.p4).

#include "p4/runtime/bits.h"
#include "p4/runtime/control-plane.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace incsim::p4rt
{

/// standard_metadata.instance_type values, as BMv2's simple_switch defines them.
enum class InstanceType : uint32_t
{
    Normal = 0,
    IngressClone = 1,
    EgressClone = 2,
    Coalesced = 3,
    Recirculate = 4,
    Replication = 5,
    Resubmit = 6,
};

/// v1model's drop port: egress_spec == 511 at the end of a pipeline drops the packet.
constexpr uint32_t kV1DropPort = 511;
/// Passes through ingress one arriving packet may make by resubmitting or recirculating
/// itself; beyond that it is dropped (BMv2 has no limit; a loop would never end).
constexpr int kMaxPasses = 16;

/// The standard metadata the target sets and reads, plus what the program asked for.
struct V1Metadata
{
    // Set by the target before a pipeline runs.
    uint32_t ingressPort = 0;
    uint32_t egressPort = 0;
    uint32_t instanceType = 0;
    uint32_t packetLength = 0;
    uint32_t egressRid = 0;
    uint64_t ingressGlobalTimestamp = 0;  // microseconds
    uint64_t egressGlobalTimestamp = 0;
    uint32_t enqTimestamp = 0;
    uint32_t enqQdepth = 0;
    uint32_t deqTimedelta = 0;
    uint32_t deqQdepth = 0;

    // Read by the target after a pipeline ran.
    uint32_t egressSpec = 0;
    uint32_t mcastGrp = 0;
    uint32_t priority = 0;

    // Requests made by extern calls during the pass; the target clears them before each pass.
    bool resubmit = false;
    bool recirculate = false;
    bool clone = false;
    uint8_t resubmitFieldList = 0;
    uint8_t recirculateFieldList = 0;
    uint8_t cloneFieldList = 0;  // 0: no user metadata is preserved
    uint32_t cloneSession = 0;
    uint32_t truncateLength = 0;  // 0: no truncation

    void ClearRequests()
    {
        resubmit = recirculate = clone = false;
        resubmitFieldList = recirculateFieldList = cloneFieldList = 0;
        cloneSession = truncateLength = 0;
    }
};

/// The first member of every generated per-packet state.
struct PacketStateHeader
{
    /// Bytes the parser consumed: the payload the deparser appends starts here.
    uint32_t parsedBytes = 0;
    /// Set by `exit`; ends the current control and every control that applied it.
    bool exited = false;
};

/// A header stack: N headers and the index `.next` extracts into.
template <typename Header, size_t N>
struct HeaderStack
{
    Header element[N];
    uint32_t nextIndex = 0;
};

/// `stack[index]` read at an index known only at run time. Out of range (the P4 spec leaves the
/// value unspecified), an invalid element whose fields are all zero.
template <typename Header, size_t N>
const Header& StackAt(const HeaderStack<Header, N>& stack, uint64_t index)
{
    static const Header kOutOfRange{};
    return index < N ? stack.element[index] : kOutOfRange;
}

/// `stack[index]` written at an index known only at run time. Out of range, the write goes to
/// `scratch`, which the caller drops: the stack is left as it was.
template <typename Header, size_t N>
Header& StackAt(HeaderStack<Header, N>& stack, uint64_t index, Header& scratch)
{
    return index < N ? stack.element[index] : scratch;
}

/// What a table's apply() returns to the control that applied it.
struct ApplyResult
{
    bool hit = false;
    uint32_t actionRun = 0;  // the ActionId of the action that ran (table-local)
};

/// A file a program was compiled from, with the SourceHash of its bytes at compile time.
struct ProgramSourceFile
{
    std::string path;  // relative to the source tree (as the build saw it)
    uint64_t hash = 0;
};

/// Identification of a compiled-in program (see GeneratedPrograms()).
struct ProgramInfo
{
    std::string name;  // file name without ".p4", e.g. "forward"
    std::string source;  // the .p4 path the code was generated from
    uint64_t codeHash = 0;  // hash of the generated C++, to detect a stale build
    std::vector<ProgramSourceFile> sources = {};  // the program and every file it includes
};

/// The files of `info.sources` whose contents under `sourceRoot` differ from what the program
/// was compiled from: the build is stale for them. Files that are missing are not reported
/// (a binary run away from its source tree cannot tell).
std::vector<std::string> ChangedSources(const ProgramInfo& info, const std::string& sourceRoot);

/// One instance of a compiled v1model program: one switch's tables, registers and counters.
class V1Program
{
  public:
    virtual ~V1Program() = default;
    V1Program(const V1Program&) = delete;
    V1Program& operator=(const V1Program&) = delete;

    virtual const ProgramInfo& Info() const = 0;

    /// Bytes of per-packet state (aligned to 8).
    virtual size_t StateSize() const = 0;

    /// Clears `state` (headers invalid, metadata zero), loads the target's standard metadata,
    /// and runs the parser over `length` bytes.
    virtual void Parse(const uint8_t* data, uint32_t length, void* state,
                       const V1Metadata& md) = 0;
    /// Copies the user metadata fields of @field_list(index) from one state to another
    /// (resubmit, recirculate and clones keep them).
    virtual void CopyFieldList(const void* from, void* to, uint8_t index) const = 0;
    /// VerifyChecksum and Ingress controls; stores egress_spec, mcast_grp and priority in md.
    virtual void Ingress(void* state, V1Metadata& md) = 0;
    /// Egress and ComputeChecksum controls, with egress_port, egress_rid and instance_type
    /// taken from md and egress_spec starting at 0; stores egress_spec in md.
    virtual void Egress(void* state, V1Metadata& md) = 0;
    /// The deparser: rewrites `data` as the emitted headers followed by the payload (the bytes
    /// from parsedBytes to `length`). Returns the new length, or nullopt if it would exceed
    /// `capacity`.
    virtual std::optional<uint32_t> Deparse(const void* state, uint8_t* data, uint32_t length,
                                            uint32_t capacity) const = 0;

    /// Parse, then keep the user metadata of @field_list(fieldList) from `keepFrom` (the
    /// state of the pass that resubmitted, recirculated or cloned the packet).
    void Reparse(const uint8_t* data, uint32_t length, void* state, const V1Metadata& md,
                 const void* keepFrom, uint8_t fieldList)
    {
        Parse(data, length, state, md);
        CopyFieldList(keepFrom, state, fieldList);
    }

    /// A user metadata field by its name in the metadata struct ("drop_reason"); nullptr if
    /// there is none or it is wider than 64 bits. Reads the value from a state.
    struct MetadataField
    {
        size_t offset = 0;
        unsigned storageBytes = 0;
        uint64_t Read(const void* state) const;
    };
    virtual const MetadataField* FindMetadataField(const std::string& name) const = 0;

    /// Tables, registers, counters, multicast groups and clone sessions, by P4 name.
    ControlPlane& Control() { return m_control; }
    const ControlPlane& Control() const { return m_control; }

    /// A switch reboot: registers and counters back to zero. Table entries, multicast groups
    /// and clone sessions are configuration, which the controller owns, and stay.
    virtual void Reset() = 0;

  protected:
    V1Program() = default;

    ControlPlane m_control;
};

using V1ProgramFactory = std::unique_ptr<V1Program> (*)();

/// A program compiled into this binary. Each library of generated programs has a registry
/// function returning its programs (see cmake/P4Programs.cmake), e.g. SwitchPrograms().
struct GeneratedProgram
{
    ProgramInfo info;
    V1ProgramFactory create = nullptr;
};

/// The program called `name` ("forward") or whose source file is `name`; throws Error
/// listing the known ones.
const GeneratedProgram& FindGeneratedProgram(const std::vector<GeneratedProgram>& programs,
                                             const std::string& name);

// Arithmetic the generated code calls for the less common operators. Operands and results
// are `width`-bit patterns in the low bits of a uint64_t (int<W> as two's complement).

inline uint64_t AddSatUnsigned(uint64_t a, uint64_t b, unsigned width)
{
    const uint64_t max = WidthMask(width);
    const uint64_t sum = a + b;
    return (sum > max || sum < a) ? max : sum;
}

inline uint64_t SubSatUnsigned(uint64_t a, uint64_t b, unsigned /*width*/)
{
    return a > b ? a - b : 0;
}

inline uint64_t AddSatSigned(uint64_t a, uint64_t b, unsigned width)
{
    const int64_t max = static_cast<int64_t>(WidthMask(width - 1));
    const int64_t min = -max - 1;
    const __int128 sum = static_cast<__int128>(SignExtend(a, width)) + SignExtend(b, width);
    const int64_t clamped = sum > max ? max : sum < min ? min : static_cast<int64_t>(sum);
    return FromSigned(clamped, width);
}

inline uint64_t SubSatSigned(uint64_t a, uint64_t b, unsigned width)
{
    const int64_t max = static_cast<int64_t>(WidthMask(width - 1));
    const int64_t min = -max - 1;
    const __int128 diff = static_cast<__int128>(SignExtend(a, width)) - SignExtend(b, width);
    const int64_t clamped = diff > max ? max : diff < min ? min : static_cast<int64_t>(diff);
    return FromSigned(clamped, width);
}

/// a << s in `width` bits (0 once s >= width).
inline uint64_t ShiftLeft(uint64_t a, uint64_t s, unsigned width)
{
    return s >= width ? 0 : (a << s) & WidthMask(width);
}

/// Logical a >> s for bit<W>.
inline uint64_t ShiftRightUnsigned(uint64_t a, uint64_t s)
{
    return s >= 64 ? 0 : a >> s;
}

/// Arithmetic a >> s for int<W>.
inline uint64_t ShiftRightSigned(uint64_t a, uint64_t s, unsigned width)
{
    const int64_t value = SignExtend(a, width);
    return FromSigned(value >> (s >= 63 ? 63 : s), width);
}

/// P4 leaves division by zero undefined; BMv2 traps. Here it yields 0, deterministically.
inline uint64_t DivideUnsigned(uint64_t a, uint64_t b)
{
    return b == 0 ? 0 : a / b;
}

inline uint64_t ModuloUnsigned(uint64_t a, uint64_t b)
{
    return b == 0 ? 0 : a % b;
}

/// x with bits high..low replaced by the low bits of v (a slice on the left of `=`).
inline uint64_t ReplaceSlice(uint64_t x, unsigned high, unsigned low, uint64_t v)
{
    const uint64_t mask = WidthMask(high - low + 1) << low;
    return (x & ~mask) | ((v << low) & mask);
}

} // namespace incsim::p4rt

#endif
