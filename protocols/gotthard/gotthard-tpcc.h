#ifndef INCSIM_GOTTHARD_GOTTHARD_TPCC_H
#define INCSIM_GOTTHARD_GOTTHARD_TPCC_H

#include "protocols/gotthard/gotthard-workload.h"

namespace incsim::gotthard
{

/// TPC-C's Payment and Order-Status transactions at the paper's reduced scale, each record a
/// key whose 64-bit value stands for the fields the two transactions use:
///  - WAREHOUSE (one): w_ytd in cents;
///  - DISTRICT d: d_ytd in cents;
///  - CUSTOMER (d, c): c_payment_cnt << 40 | c_ytd_payment in cents (c_balance follows);
///  - HISTORY (d, c, n): the amount of customer (d, c)'s n-th payment (inserted, never read);
///  - ORDER (d, c): the customer's latest order, and ORDER-LINE (d, c, i) for its 5..15
///    lines, as loaded (no modelled transaction writes them).
/// Every record starts at value 0, the loaded state. Payment (clause 2.5) adds a uniform
/// 1.00..5000.00 to the warehouse, the district and the customer, and inserts the history
/// row: three compares, three writes and one write. Order-Status (clause 2.6) compares the
/// customer, the order and its lines, 7 to 17 operations, so most need several fragments.
/// Customers are chosen by id (the paper's executor does exact selects only); with one
/// warehouse no payment is remote.
class TpccWorkload : public Workload
{
  public:
    struct Config
    {
        uint32_t districts = 2;
        uint32_t customers = 10;  ///< per district
        double payment = 43.0 / 47.0;  ///< share of Payment (TPC-C's 43 : 4 against Order-Status)
    };

    explicit TpccWorkload(const Config& config);
    const std::vector<std::string>& KindNames() const override;
    Transaction Next(uint32_t client, Rng& rng) const override;
    void Execute(const Transaction& txn, const ValueCache& cache,
                 std::vector<Op>& ops) const override;

    /// Lines of customer (d, c)'s loaded order: 5..15, fixed by the ids (TPC-C 4.3.3.1).
    static uint32_t OrderLines(uint32_t district, uint32_t customer);

  private:
    Config m_config;
};

} // namespace incsim::gotthard

#endif
