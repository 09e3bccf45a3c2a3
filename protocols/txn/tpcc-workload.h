#ifndef INCSIM_TXN_TPCC_WORKLOAD_H
#define INCSIM_TXN_TPCC_WORKLOAD_H

#include "protocols/txn/txn-workload.h"

namespace incsim::txn
{

/// TPC-C's New-Order, Payment and Order-Status on key-value records (docs/txn.md says what
/// of TPC-C is modelled). Each record is a key whose 64-bit value stands for the fields the
/// modelled transactions use; every record starts at 0, the loaded state:
///  - WAREHOUSE w: w_ytd; DISTRICT (w, d): d_ytd; DISTRICT-NEXT-O-ID (w, d): d_next_o_id;
///  - CUSTOMER (w, d, c): c_payment_cnt << 40 | c_ytd_payment (c_balance follows);
///  - HISTORY (w, d, c, n): the amount of the customer's n-th payment (inserted, never read);
///  - ORDER (w, d, c) and ORDER-LINE (w, d, c, i): the customer's loaded latest order and its
///    5..15 lines, which Order-Status reads (no modelled transaction writes them);
///  - STOCK (w, i): s_ytd; NEW-ORDER's inserted ORDER (w, d, o), NEW-ORDER (w, d, o) and
///    ORDER-LINE (w, d, o, l).
/// Transactions:
///  - New-Order (clause 2.4): reads and increments the district's next order id, adds each
///    line's quantity to its item's stock at the supplying warehouse (remote with probability
///    `remoteItems` when there are other warehouses), and inserts the order, its new-order row
///    and its 5..15 lines;
///  - Payment (clause 2.5): adds a uniform 1.00..5000.00 to the warehouse, the district and
///    the customer (of another warehouse with probability `remoteCustomers`), and inserts the
///    history row;
///  - Order-Status (clause 2.6): reads the customer, its order and the order's lines.
/// Customers are chosen by id and items uniformly (no NURand, no last names). A client's home
/// warehouse is client mod warehouses. Warehouse w is in partition w / warehousesPerPartition.
///
/// Keys: warehouse << 32 | table << 28 | the record's ids, so one warehouse's keys are those
/// of Gotthard's reduced scale (its one warehouse is warehouse 0).
class TpccWorkload : public Workload
{
  public:
    struct Config
    {
        uint32_t partitions = 1;
        uint32_t warehousesPerPartition = 1;
        uint32_t districts = 10;      ///< per warehouse (at most 15)
        uint32_t customers = 3000;    ///< per district (at most 4095)
        uint32_t items = 100'000;     ///< at most 2^28
        double newOrder = 45.0 / 88.0;  ///< shares of the kinds; Order-Status has the rest
        double payment = 43.0 / 88.0;
        double remoteItems = 0.01;     ///< New-Order: share of lines from another warehouse
        double remoteCustomers = 0.15;  ///< Payment: share of customers of another warehouse
        uint32_t minLines = 5;
        uint32_t maxLines = 15;
    };

    /// Gotthard's reduced scale (Sec. 5.4): one warehouse, two districts of 10 customers,
    /// Payment and Order-Status 43 : 4.
    static Config GotthardScale();

    explicit TpccWorkload(const Config& config);
    const std::vector<std::string>& KindNames() const override;
    void Next(uint32_t client, Rng& rng, Transaction& txn) const override;
    void Execute(const Transaction& txn, const ValueView& values,
                 std::vector<Access>& accesses) const override;
    uint32_t Partitions() const override { return m_config.partitions; }
    uint32_t PartitionOf(uint64_t key) const override
    {
        return static_cast<uint32_t>((key >> 32) / m_config.warehousesPerPartition);
    }

    enum Kind : uint32_t
    {
        kPayment,
        kOrderStatus,
        kNewOrder
    };
    /// Lines of customer (d, c)'s loaded order: 5..15, fixed by the ids (TPC-C 4.3.3.1).
    static uint32_t OrderLines(uint32_t district, uint32_t customer);
    /// Warehouses: partitions * warehousesPerPartition.
    uint32_t Warehouses() const { return m_warehouses; }

  private:
    void ExecuteNewOrder(const Transaction& txn, const ValueView& values,
                         std::vector<Access>& accesses) const;

    Config m_config;
    uint32_t m_warehouses;
    /// new_order (the last kind) only when the mix has it, so a mix without it (Gotthard's)
    /// reports no such kind.
    std::vector<std::string> m_kindNames;
};

} // namespace incsim::txn

#endif
