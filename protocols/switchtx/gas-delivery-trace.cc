#include "protocols/switchtx/gas-delivery-trace.h"

#include "sim/core/diagnostics.h"
#include "sim/trace/csv-reader.h"
#include "sim/trace/csv-writer.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

namespace incsim::switchtx
{

const char* const kGasOnce = "gas delivers once";

namespace
{
const char* const kBegin = "begin";
const char* const kDeliver = "deliver";

const char*
TypeName(MsgType type)
{
    switch (type)
    {
    case MsgType::Init:
        return "init";
    case MsgType::LockOk:
        return "lock_ok";
    case MsgType::ValidateOk:
        return "validate_ok";
    case MsgType::ReplicateOk:
        return "replicate_ok";
    case MsgType::CommitOk:
        return "commit_ok";
    case MsgType::Fail:
        return "fail";
    case MsgType::VersionCopyOk:
        return "version_copy_ok";
    default:
        return "other";
    }
}
} // namespace

const TraceSchema&
GasDeliveryTrace()
{
    static const TraceSchema trace{
        "switchtx_gas",
        "SwitchTx's gather-and-scatter as the hosts saw it: a `begin` row when a client starts "
        "an attempt (it names the attempt's txn id), and a `deliver` row for every control "
        "message a worker thread takes as a command: a scattered phase (the gathered type: "
        "`lock_ok` is the validate request, ...), a `fail`, or the client's `commit_ok`. "
        "Modes without GaS (fasst, eris) write only `begin` rows. `incsim check` verifies "
        "from it that the gatherers delivered each phase at most once.",
        {{"time_ns", "ns", "When the client began, or the thread took the message."},
         {"host", "int", "The host (server) index."},
         {"thread", "int", "The worker thread."},
         {"txn_id", "uint64", "The attempt's txn id (client slot in the low 16 bits)."},
         {"event", "string", "`begin` or `deliver`."},
         {"type", "string",
          "`deliver`: the message type (`lock_ok`, `validate_ok`, `replicate_ok`, "
          "`commit_ok`, `fail`, `version_copy_ok`); empty for `begin`."}}};
    return trace;
}

void
LogAttemptBegin(CsvWriter& log, uint32_t host, uint32_t thread, uint32_t txnId, int64_t timeNs)
{
    log.Row(timeNs, host, thread, txnId, kBegin, "");
}

void
LogDelivery(CsvWriter& log, uint32_t host, uint32_t thread, uint32_t txnId, MsgType type,
            int64_t timeNs)
{
    log.Row(timeNs, host, thread, txnId, kDeliver, TypeName(type));
}

void
CheckGasDeliveries(const std::string& runDir, CheckFindings& findings)
{
    const std::string path = runDir + "/" + GasDeliveryTrace().name + ".csv";
    if (!std::filesystem::exists(path))
    {
        findings.Checked(kGasOnce, "not checked: the run has no switchtx_gas trace");
        return;
    }
    CsvReader in(path, GasDeliveryTrace().ColumnNames());
    const size_t hostColumn = in.Column("host");
    const size_t txnColumn = in.Column("txn_id");
    const size_t eventColumn = in.Column("event");
    const size_t typeColumn = in.Column("type");
    // Attempts of one txn id are told apart by the begin rows before them.
    std::unordered_map<uint64_t, uint64_t> generation;
    std::map<std::tuple<uint64_t, uint64_t, uint64_t, std::string>, uint64_t> deliveries;
    uint64_t attempts = 0;
    uint64_t delivered = 0;
    while (in.Next())
    {
        const uint64_t txnId = in.Uint(txnColumn);
        const std::string& event = in.Text(eventColumn);
        if (event == kBegin)
        {
            ++generation[txnId];
            ++attempts;
            continue;
        }
        if (event != kDeliver)
        {
            throw InputError(path, "",
                             fmt::format("line {}: event \"{}\": expected \"{}\" or \"{}\"",
                                         in.Line(), event, kBegin, kDeliver));
        }
        ++delivered;
        const std::string& type = in.Text(typeColumn);
        const uint64_t host = in.Uint(hostColumn);
        const uint64_t count = ++deliveries[{txnId, generation[txnId], host, type}];
        if (count == 2)
        {
            findings.Add(kGasOnce,
                         fmt::format("{}:{}: host {} got a second {} of txn {:#x} (attempt "
                                     "{} of that id): {}",
                                     path, in.Line(), host, type, txnId, generation[txnId],
                                     type == "fail" ? "a later fail was scattered, not dropped "
                                                      "as aborted"
                                                    : "the phase was scattered twice"));
        }
    }
    findings.Checked(kGasOnce, fmt::format("{} deliveries of {} attempts, each phase's scatter, "
                                           "fail and commit_ok at most once per host",
                                           delivered, attempts));
}

} // namespace incsim::switchtx
