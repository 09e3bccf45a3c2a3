#include "protocols/switchtx/admission-control.h"

#include <algorithm>

namespace incsim::switchtx
{

const char*
AdmissionControl::BranchName(Branch branch)
{
    switch (branch)
    {
    case Branch::None:
        return "none";
    case Branch::Reset:
        return "reset";
    case Branch::Restart:
        return "restart";
    case Branch::Increase:
        return "increase";
    case Branch::Decrease:
        return "decrease";
    }
    return "none";
}

AdmissionControl::AdmissionControl(uint32_t maxMpl, double alpha)
    : m_maxMpl(std::max<uint32_t>(maxMpl, 1)),
      m_alpha(alpha),
      m_slowStart(m_maxMpl / 2)
{
}

void
AdmissionControl::Grow()
{
    m_mpl = m_mpl < m_slowStart ? m_mpl * 2 : m_mpl + 1;
    m_mpl = std::min(m_mpl, m_maxMpl);
}

AdmissionControl::Branch
AdmissionControl::EndEpoch(double throughput, bool loss)
{
    Branch branch;
    if (loss)
    {
        m_slowStart = std::max<uint32_t>(m_mpl / 2, 1);
        m_restart = true;
        m_mpl = 1;
        branch = Branch::Reset;
    }
    else if (m_restart)
    {
        m_restart = false;
        Grow();
        branch = Branch::Restart;
    }
    else if (throughput > m_alpha * m_lastThroughput)
    {
        Grow();
        branch = Branch::Increase;
    }
    else
    {
        m_restart = true;
        m_mpl /= 2;
        branch = Branch::Decrease;
    }
    if (m_mpl == 0)
    {
        m_mpl = 1;
    }
    m_lastThroughput = throughput;
    return branch;
}

const TraceSchema&
MplTrace()
{
    static const TraceSchema trace{
        "switchtx_mpl",
        "SwitchTx with `admission: dynamic`: one row per worker thread at the end of each "
        "admission-control epoch (`mpl_epoch`), with Listing 1's decision (Fig. 13).",
        {{"time_ns", "ns", "The end of the epoch."},
         {"host", "uint32", "The thread's server (host index)."},
         {"thread", "uint32", "The thread on its server."},
         {"epoch", "uint64", "The epoch, 0, 1, ..."},
         {"throughput", "float",
          "The global throughput the thread computed for the epoch (txn/s): its server's "
          "commits and what the other servers' control messages said of theirs."},
         {"loss", "uint32", "1 if one of the thread's attempts timed out in the epoch."},
         {"branch", "string",
          "Listing 1's branch: `reset` (loss), `restart`, `increase` or `decrease`."},
         {"mpl", "uint32", "The thread's MPL for the next epoch."}}};
    return trace;
}

} // namespace incsim::switchtx
