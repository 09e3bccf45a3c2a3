#include "protocols/gotthard/gotthard-traces.h"

namespace incsim::gotthard
{

namespace
{
const char* kRows = " One row per operation, in order (`op` = 0, 1, ...); a transaction's rows are "
                    "consecutive.";
const TraceColumn kClient{"client", "int", "The client's host index."};
const TraceColumn kTxn{"txn", "uint64",
                       "The attempt's transaction id: (client index + 1) << 48 | the client's "
                       "attempt counter."};
const TraceColumn kOp{"op", "int", "The operation's position in the transaction."};
const TraceColumn kType{"type", "int", "1 read, 2 write, 3 compare."};
const TraceColumn kKey{"key", "uint32", "The key."};
} // namespace

const TraceSchema&
StoreTrace()
{
    static const TraceSchema trace{
        "gotthard_store",
        std::string("Every transaction the store executed, in execution order.") + kRows,
        {{"seq", "uint64", "Execution number, 0, 1, 2, ...: the store's serial order."},
         kClient, kTxn,
         {"outcome", "string", "`commit` or `abort`."},
         kOp, kType, kKey,
         {"value", "uint64",
          "Compares and writes as requested; reads the value returned (after the "
          "transaction's writes, Algorithm 1)."},
         {"time_ns", "ns", "When the store executed it (after its CPU cost)."}}};
    return trace;
}

const TraceSchema&
ClientTrace()
{
    static const TraceSchema trace{
        "gotthard_client",
        std::string("What each client sent, and what it settled each attempt with.") + kRows,
        {kClient, kTxn,
         {"logical", "uint64",
          "The client's logical transaction, 1, 2, ...: all retries of one transaction share "
          "it; it only grows, across crashes too."},
         {"event", "string",
          "`send`: the attempt's request, at its first send (retransmissions are not logged); "
          "`ok`, `abort`: the answer the client settled the attempt with. An attempt in "
          "flight when the client crashed or the run ended has no answer."},
         {"from_switch", "int", "1 if the answer came from a switch (always 0 for `send`)."},
         kOp, kType, kKey,
         {"value", "uint64",
          "`send`: the compare and write values sent (reads carry 0); answers: the value the "
          "answer carries (a store answer: the store's value of the key after the "
          "transaction; a switch abort: the switch's value for compares)."},
         {"time_ns", "ns", "When the request was first sent, or the answer arrived."}}};
    return trace;
}

std::vector<TraceSchema>
GotthardTraces()
{
    return {StoreTrace(), ClientTrace()};
}

} // namespace incsim::gotthard
