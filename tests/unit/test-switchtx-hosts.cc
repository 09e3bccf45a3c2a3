// SwitchTx's host-side pieces on their own: the wire format against the switch program's
// contract, the shard store (locks, validation, versions), the software GaS engine (Table 1
// with stale and aborted transactions), the phase order, and the history's pending
// decisions.

#include "protocols/switchtx/batch-queue.h"
#include "protocols/switchtx/gas-engine.h"
#include "protocols/switchtx/server-log.h"
#include "protocols/switchtx/switchtx-store.h"
#include "protocols/switchtx/switchtx-txn.h"
#include "protocols/switchtx/switchtx-wire.h"

#include <catch2/catch.hpp>

#include <array>
#include <vector>

using namespace incsim;
using namespace incsim::switchtx;

TEST_CASE("SwitchTx control header encodes as switchtx.p4 parses it", "[switchtx][wire]")
{
    ControlHeader h;
    h.type = MsgType::ReplicateOk;
    h.down = true;
    h.retry = true;
    h.count = 0x0102;
    h.txnId = 0xA1B2C3D4;
    h.slices.path[0] = GasSlice{7, 0x0304, GasSlice::kNoParent, 0x0506};
    h.slices.path[2] = GasSlice{9, 1, 2, 3};
    h.slices.down[15] = GasDownSlice{11, 0x0708};
    std::array<uint8_t, ControlHeader::kBytes> bytes{};
    h.Encode(bytes.data());
    // switchtx_t: type, down|retry|reserved, count, txn_id; then 3 7-byte path slices and
    // 16 3-byte down slices.
    CHECK(ControlHeader::kBytes == 8 + 3 * 7 + 16 * 3);
    CHECK(bytes[0] == contract::TYPE_REPLICATE_OK);
    CHECK(bytes[1] == 0xC0);
    CHECK(bytes[2] == 0x01);
    CHECK(bytes[3] == 0x02);
    CHECK(bytes[4] == 0xA1);
    CHECK(bytes[7] == 0xD4);
    CHECK(bytes[8] == 7);
    CHECK(bytes[9] == 0x03);
    CHECK(bytes[10] == 0x04);
    CHECK(bytes[11] == 0xFF);
    CHECK(bytes[12] == 0xFF);
    CHECK(bytes[13] == 0x05);
    CHECK(bytes[14] == 0x06);
    CHECK(bytes[8 + 2 * 7] == 9);
    CHECK(bytes[8 + 3 * 7 + 15 * 3] == 11);
    CHECK(bytes[8 + 3 * 7 + 15 * 3 + 1] == 0x07);
    CHECK(bytes[8 + 3 * 7 + 15 * 3 + 2] == 0x08);
    ControlHeader d;
    REQUIRE(d.Decode(bytes.data(), bytes.size()));
    CHECK(d.type == h.type);
    CHECK(d.down);
    CHECK(d.retry);
    CHECK(d.count == h.count);
    CHECK(d.txnId == h.txnId);
    CHECK(d.slices == h.slices);
    CHECK_FALSE(d.Decode(bytes.data(), bytes.size() - 1));
}

TEST_CASE("A reliable-channel header is switchtx_t alone, as switchtx.p4 parses TYPE_RC",
          "[switchtx][wire]")
{
    ControlHeader h;
    h.type = MsgType::Rc;
    h.txnId = 0x01020304;
    h.slices.path[0] = GasSlice{7, 1, 2, 3};  // not on the wire: an Rc header has no slices
    CHECK(h.WireBytes() == contract::switchtx_t::kBytes);
    std::array<uint8_t, ControlHeader::kBytes> bytes{};
    bytes.fill(0xEE);
    h.Encode(bytes.data());
    CHECK(bytes[0] == contract::TYPE_RC);
    CHECK(bytes[7] == 0x04);
    CHECK(bytes[contract::switchtx_t::kBytes] == 0xEE);  // nothing written after switchtx_t
    ControlHeader d;
    REQUIRE(d.Decode(bytes.data(), contract::switchtx_t::kBytes));
    CHECK(d.type == MsgType::Rc);
    CHECK(d.txnId == h.txnId);
    CHECK(d.slices == GasSlices{});
    CHECK_FALSE(d.Decode(bytes.data(), contract::switchtx_t::kBytes - 1));
    CHECK(ClassOf(MsgType::Rc, false) == contract::CLASS_MEDIUM);
    // A control message still needs its slices.
    h.type = MsgType::LockOk;
    CHECK(h.WireBytes() == ControlHeader::kBytes);
    h.Encode(bytes.data());
    CHECK_FALSE(d.Decode(bytes.data(), ControlHeader::kBytes - 1));
    REQUIRE(d.Decode(bytes.data(), ControlHeader::kBytes));
    CHECK(d.slices == h.slices);
}

TEST_CASE("SwitchTx priority classes follow §3.4.1", "[switchtx][wire]")
{
    CHECK(ClassOf(MsgType::LockOk, false) == contract::CLASS_HIGH);
    CHECK(ClassOf(MsgType::ReplicateOk, false) == contract::CLASS_HIGH);
    CHECK(ClassOf(MsgType::Fail, false) == contract::CLASS_HIGH);
    CHECK(ClassOf(MsgType::VersionCopyOk, false) == contract::CLASS_HIGH);
    CHECK(ClassOf(MsgType::Read, false) == contract::CLASS_LOW);
    CHECK(ClassOf(MsgType::CommitOk, false) == contract::CLASS_LOW);
    CHECK(ClassOf(MsgType::ValidateOk, false) == contract::CLASS_MEDIUM);
    CHECK(ClassOf(MsgType::LockRequest, false) == contract::CLASS_MEDIUM);
    CHECK(ClassOf(MsgType::Read, true) == contract::CLASS_HIGH);
    CHECK(ClassOf(MsgType::CommitOk, true) == contract::CLASS_HIGH);
}

TEST_CASE("SwitchTx shard store: no-wait locks, validation, versions", "[switchtx][store]")
{
    ShardStore store;
    CHECK(store.Get(5).version == 0);
    CHECK(store.TryLock(5, 100));
    CHECK(store.TryLock(5, 100));  // its own lock again
    CHECK_FALSE(store.TryLock(5, 200));
    CHECK(store.LockedKeys() == 1);
    // A read of key 5 at version 0 is valid for the lock holder, not for another.
    CHECK(store.Validate(5, 0, 100));
    CHECK_FALSE(store.Validate(5, 0, 200));
    CHECK(store.Install(5, 42) == 1);
    store.Unlock(5, 200);  // not the owner: no effect
    CHECK(store.LockedKeys() == 1);
    store.Unlock(5, 100);
    CHECK(store.LockedKeys() == 0);
    CHECK_FALSE(store.Validate(5, 0, 200));  // the version moved
    CHECK(store.Validate(5, 1, 200));
    CHECK(store.Get(5).value == 42);
    // Keys only locked or read are not part of the written state.
    CHECK(store.TryLock(6, 300));
    store.Unlock(6, 300);
    CHECK(store.WrittenState() == std::map<uint64_t, uint64_t>{{5, 42}});
}

namespace
{
ControlHeader
Message(MsgType type, uint32_t txnId, uint16_t count = 1)
{
    ControlHeader h;
    h.type = type;
    h.txnId = txnId;
    h.count = count;
    return h;
}
} // namespace

TEST_CASE("The software GaS engine runs Table 1", "[switchtx][gas]")
{
    GasEngine engine;
    const uint32_t txn = MakeTxnId(7, 1);
    GasSlice slice{1, 3, GasSlice::kNoParent, 9};  // gather 3, scatter to group 9
    ControlHeader init = Message(MsgType::Init, txn);
    CHECK(engine.Process(init, slice) == GasEngine::Action::Drop);

    SECTION("the last of threshold messages is scattered with the total; then the next phase")
    {
        ControlHeader m = Message(MsgType::LockOk, txn);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        m = Message(MsgType::LockOk, txn);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        m = Message(MsgType::LockOk, txn);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
        CHECK(m.count == 3);
        // The counter was reset: validate_ok gathers from 0 (weighted counts add).
        GasSlice two{1, 2, GasSlice::kNoParent, 4};
        m = Message(MsgType::ValidateOk, txn, 2);
        CHECK(engine.Process(m, two) == GasEngine::Action::Scatter);
        // commit_ok goes to the client.
        GasSlice one{1, 1, GasSlice::kNoParent, 0};
        m = Message(MsgType::CommitOk, txn);
        CHECK(engine.Process(m, one) == GasEngine::Action::ToClient);
        CHECK(engine.GetCounters().gathered == 2);
        CHECK(engine.GetCounters().scattered == 2);
        CHECK(engine.GetCounters().toClient == 1);
    }
    SECTION("the first fail is scattered and aborts; later messages are dropped")
    {
        ControlHeader m = Message(MsgType::LockOk, txn);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        ControlHeader fail = Message(MsgType::Fail, txn);
        CHECK(engine.Process(fail, GasSlice{1, 1, GasSlice::kNoParent, 5}) ==
              GasEngine::Action::Scatter);
        fail = Message(MsgType::Fail, txn);
        CHECK(engine.Process(fail, slice) == GasEngine::Action::Drop);
        for (int i = 0; i < 3; ++i)
        {
            m = Message(MsgType::LockOk, txn);
            CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        }
        CHECK(engine.GetCounters().aborted == 1);
        CHECK(engine.GetCounters().droppedAborted == 4);
        // The slot's next transaction starts clean.
        const uint32_t next = MakeTxnId(7, 2);
        ControlHeader reinit = Message(MsgType::Init, next);
        engine.Process(reinit, slice);
        m = Message(MsgType::LockOk, next, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
    }
    SECTION("messages of the slot's earlier transaction are stale")
    {
        const uint32_t next = MakeTxnId(7, 2);
        ControlHeader reinit = Message(MsgType::Init, next);
        engine.Process(reinit, slice);
        ControlHeader m = Message(MsgType::LockOk, txn, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        ControlHeader fail = Message(MsgType::Fail, txn);
        CHECK(engine.Process(fail, slice) == GasEngine::Action::Drop);
        CHECK(engine.GetCounters().stale == 2);
        // ... and did not touch the new transaction's counter or aborted flag.
        m = Message(MsgType::LockOk, next, 2);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        m = Message(MsgType::LockOk, next, 1);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
    }
    SECTION("a message that outruns its init installs its transaction; the init then keeps "
            "its count")
    {
        // The earlier transaction left a count behind.
        ControlHeader m = Message(MsgType::LockOk, txn);
        engine.Process(m, slice);
        const uint32_t next = MakeTxnId(7, 2);
        m = Message(MsgType::LockOk, next);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        ControlHeader late = Message(MsgType::Init, next);
        CHECK(engine.Process(late, slice) == GasEngine::Action::Drop);
        m = Message(MsgType::LockOk, next);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        m = Message(MsgType::LockOk, next);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
        CHECK(m.count == 3);
        CHECK(engine.GetCounters().early == 1);
        CHECK(engine.GetCounters().stale == 0);
        // The init of the transaction before is late: it does not take the slot back.
        ControlHeader stale = Message(MsgType::Init, txn);
        CHECK(engine.Process(stale, slice) == GasEngine::Action::Drop);
        CHECK(engine.GetCounters().stale == 1);
        m = Message(MsgType::LockOk, next, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
    }
    SECTION("a fail that outruns its init aborts its transaction; the init keeps the abort")
    {
        const uint32_t next = MakeTxnId(7, 2);
        ControlHeader fail = Message(MsgType::Fail, next);
        CHECK(engine.Process(fail, GasSlice{1, 1, GasSlice::kNoParent, 5}) ==
              GasEngine::Action::Scatter);
        ControlHeader late = Message(MsgType::Init, next);
        engine.Process(late, slice);
        ControlHeader m = Message(MsgType::LockOk, next, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        CHECK(engine.GetCounters().droppedAborted == 1);
    }
    SECTION("attempts compare in serial-number order; an init is late only just behind")
    {
        // Half the attempt space ahead is not later: stale. Its init takes the slot.
        const uint32_t far = MakeTxnId(7, 1 + 0x8000);
        ControlHeader m = Message(MsgType::LockOk, far, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Drop);
        CHECK(engine.GetCounters().stale == 1);
        ControlHeader farInit = Message(MsgType::Init, far);
        engine.Process(farInit, slice);
        m = Message(MsgType::LockOk, far, 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
        // Attempt numbers wrap past 0xFFFF to 1 (0 is never used).
        const uint32_t last = MakeTxnId(8, 0xFFFF);
        ControlHeader lastInit = Message(MsgType::Init, last);
        engine.Process(lastInit, slice);
        m = Message(MsgType::LockOk, MakeTxnId(8, 1), 3);
        CHECK(engine.Process(m, slice) == GasEngine::Action::Scatter);
        CHECK(engine.GetCounters().early == 1);
    }
}

TEST_CASE("SwitchTx phase order follows Table 1, skipping empty phases", "[switchtx][phases]")
{
    TxnPlan plan;
    plan.writePrimaries = {1, 2};
    plan.writeBackups = {2, 3};
    plan.readPrimaries = {0, 2};
    CHECK(NextPhase(plan, Phase::Lock) == Phase::Validate);
    CHECK(NextPhase(plan, Phase::Validate) == Phase::CommitBackup);
    CHECK(NextPhase(plan, Phase::CommitBackup) == Phase::CommitPrimary);
    CHECK(NextPhase(plan, Phase::CommitPrimary) == Phase::Done);
    plan.readPrimaries.clear();  // [D] 9: every read also written, so lock_ok goes to W_B
    CHECK(NextPhase(plan, Phase::Lock) == Phase::CommitBackup);
    plan.writeBackups.clear();  // no replication: straight to commit primary
    CHECK(NextPhase(plan, Phase::Lock) == Phase::CommitPrimary);
    CHECK(NextPhase(plan, Phase::VersionCopy) == Phase::ValidateRead);
    CHECK(CompletedBy(MsgType::ReplicateOk) == Phase::CommitBackup);
    CHECK(ReplyOf(Phase::Validate) == MsgType::ValidateOk);
}

TEST_CASE("SwitchTx server log: pending decisions hold later ones back, aborts leave no row",
          "[switchtx][history]")
{
    ServerLog log(nullptr, 0);
    HistoryRecorder recorder;
    const ServerLog::Handle read = log.Append(0, 0, 1, 10, false, false, 100);
    const ServerLog::Handle write = log.Append(0, 0, 2, 20, true, true, 110);
    CHECK(log.Pending(read));
    CHECK_FALSE(log.Pending(write));
    recorder.AddPending(1, 10, &log, read, true);
    recorder.Settle(1, 10, true);
    CHECK_FALSE(log.Pending(read));
    const ServerLog::Handle mixed = log.Append(0, 0, 3, 30, false, false, 120);
    recorder.AddPending(3, 30, &log, mixed, false);
    recorder.Settle(3, 30, true);  // the server settles a commit of its own decision itself
    CHECK(log.Pending(mixed));
    log.Flush();
    CHECK_FALSE(log.Pending(mixed));
}

namespace
{
struct Item
{
    int id;
    uint8_t priorityClass;
};
struct ClassOfTestItem
{
    uint8_t operator()(const Item& item) const { return item.priorityClass; }
};

std::vector<int>
Drain(BatchQueue<Item, ClassOfTestItem>& queue, size_t n)
{
    std::vector<int> order;
    for (size_t i = 0; i < n; ++i)
    {
        order.push_back(queue.Pop().id);
    }
    return order;
}
} // namespace

TEST_CASE("A worker thread's queue: arrival order, or batches sorted by class (+Reorder)",
          "[switchtx][reorder]")
{
    const std::vector<Item> arrivals{{0, 1}, {1, 3}, {2, 2}, {3, 3}, {4, 1}};
    SECTION("without reordering, arrival order")
    {
        BatchQueue<Item, ClassOfTestItem> queue(false);
        for (const Item& item : arrivals)
        {
            queue.Push(item);
        }
        CHECK(Drain(queue, 5) == std::vector<int>{0, 1, 2, 3, 4});
        CHECK(queue.Empty());
    }
    SECTION("with reordering, each batch by class, arrival order within a class")
    {
        BatchQueue<Item, ClassOfTestItem> queue(true);
        for (const Item& item : arrivals)
        {
            queue.Push(item);
        }
        CHECK(Drain(queue, 2) == std::vector<int>{1, 3});
        // Arrivals during a batch wait for the next one, even of a higher class.
        queue.Push({5, 3});
        queue.Push({6, 2});
        CHECK(Drain(queue, 3) == std::vector<int>{2, 0, 4});
        CHECK(Drain(queue, 2) == std::vector<int>{5, 6});
        CHECK(queue.Empty());
    }
}
