#ifndef INCSIM_SWITCHTX_BATCH_QUEUE_H
#define INCSIM_SWITCHTX_BATCH_QUEUE_H

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace incsim::switchtx
{

/// A worker thread's receive queue (§3.4.1's server-side reordering): the thread takes
/// everything queued as a batch and serves it, with reordering sorted by priority class
/// (higher first, arrival order within a class), otherwise in arrival order. What arrives
/// meanwhile waits for the next batch: the batch never waits for a timeout or a count.
/// `Priority(item)` gives an item's class.
template <typename T, typename Priority>
class BatchQueue
{
  public:
    explicit BatchQueue(bool reorder, Priority priority = {})
        : m_reorder(reorder),
          m_priority(priority)
    {
    }

    void Push(T item) { m_incoming.push_back(std::move(item)); }
    bool Empty() const { return m_next == m_batch.size() && m_incoming.empty(); }

    /// Removes and returns the next item to serve; the queue must not be empty.
    T Pop()
    {
        if (m_next == m_batch.size())
        {
            m_batch.clear();
            m_next = 0;
            std::swap(m_batch, m_incoming);
            if (m_reorder)
            {
                std::stable_sort(m_batch.begin(), m_batch.end(), [this](const T& a, const T& b) {
                    return m_priority(a) > m_priority(b);
                });
            }
        }
        return std::move(m_batch[m_next++]);
    }

  private:
    bool m_reorder;
    Priority m_priority;
    std::vector<T> m_incoming;  ///< arrived since the current batch was taken
    std::vector<T> m_batch;
    size_t m_next = 0;  ///< next item of m_batch
};

} // namespace incsim::switchtx

#endif
