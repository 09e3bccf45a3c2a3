// The commit log of a server whose decisions take their place before their outcome
// (protocols/onepipe/apps/decision-log.h): rows come out in the server's order, each once,
// whatever order the outcomes arrive in.

#include "test-support.h"

#include "protocols/onepipe/apps/decision-log.h"
#include "protocols/txn/txn-history.h"
#include "sim/trace/csv-writer.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;
using incsim::onepipe::apps::DecisionLog;

namespace
{
std::vector<txn::HistoryOp>
Ops(uint64_t key)
{
    return {txn::HistoryOp{txn::AccessType::Write, key, key * 10, std::nullopt}};
}

/// (seq, client, attempt, outcome) of every row, in file order.
std::vector<std::string>
Rows(const std::string& path)
{
    std::istringstream in(ReadFile(path));
    std::string line;
    std::getline(in, line); // header
    std::vector<std::string> rows;
    while (std::getline(in, line))
    {
        std::istringstream fields(line);
        std::string server, shard, replica, seq, client, attempt, outcome;
        std::getline(fields, server, ',');
        std::getline(fields, shard, ',');
        std::getline(fields, replica, ',');
        std::getline(fields, seq, ',');
        std::getline(fields, client, ',');
        std::getline(fields, attempt, ',');
        std::getline(fields, outcome, ',');
        rows.push_back(seq + " " + client + "/" + attempt + " " + outcome);
    }
    return rows;
}
} // namespace

TEST_CASE("DecisionLog writes decisions in their order as their outcomes arrive",
          "[onepipe][apps][log]")
{
    TempDir dir;
    const std::string path = dir.File("txn_log.csv");
    {
        CsvWriter writer(path, txn::ServerLogTrace().ColumnNames());
        DecisionLog log(&writer, 3, 3, 0);
        const uint64_t a = log.Append(1, 10, Ops(1), 100, std::nullopt);
        const uint64_t b = log.Append(2, 20, Ops(2), 110, true); // waits behind a
        const uint64_t c = log.Append(1, 11, Ops(3), 120, std::nullopt);
        log.ResolveUnseen(4, 40, false); // an attempt given up before its message arrived
        log.Resolve(c, true);            // waits behind a
        CHECK(writer.Rows() == 0);
        log.Resolve(a, false);
        CHECK(writer.Rows() == 3);
        log.Append(4, 40, Ops(4), 130, std::nullopt); // takes the early outcome
        const uint64_t e = log.Append(5, 50, Ops(5), 140, std::nullopt);
        log.Resolve(b, false); // written already: ignored
        log.Close();           // e never resolved: an abort
        log.Resolve(e, true);  // too late: ignored
        CHECK(a == 0);
        CHECK(e == 4);
    }
    CHECK(Rows(path) == std::vector<std::string>{"0 1/10 abort", "1 2/20 commit", "2 1/11 commit",
                                                 "3 4/40 abort", "4 5/50 abort"});
}
