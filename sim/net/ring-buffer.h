#ifndef INCSIM_NET_RING_BUFFER_H
#define INCSIM_NET_RING_BUFFER_H

#include <cstddef>
#include <utility>
#include <vector>

namespace incsim
{

/// A growable FIFO on a power-of-two ring. Unlike std::deque it never frees or allocates in a
/// steady state, which keeps queues and in-flight lists off the allocator in the per-packet path.
template <typename T>
class RingBuffer
{
  public:
    bool Empty() const { return m_size == 0; }
    size_t Size() const { return m_size; }

    void Push(T value)
    {
        if (m_size == m_slots.size())
        {
            Grow();
        }
        m_slots[(m_head + m_size) & (m_slots.size() - 1)] = std::move(value);
        ++m_size;
    }

    T& Front() { return m_slots[m_head]; }
    const T& Front() const { return m_slots[m_head]; }

    T Pop()
    {
        T value = std::move(m_slots[m_head]);
        m_head = (m_head + 1) & (m_slots.size() - 1);
        --m_size;
        return value;
    }

    template <typename F>
    void ForEach(F&& f) const
    {
        for (size_t i = 0; i < m_size; ++i)
        {
            f(m_slots[(m_head + i) & (m_slots.size() - 1)]);
        }
    }

  private:
    void Grow()
    {
        std::vector<T> bigger(m_slots.empty() ? 8 : m_slots.size() * 2);
        for (size_t i = 0; i < m_size; ++i)
        {
            bigger[i] = std::move(m_slots[(m_head + i) & (m_slots.size() - 1)]);
        }
        m_slots.swap(bigger);
        m_head = 0;
    }

    std::vector<T> m_slots;
    size_t m_head = 0;
    size_t m_size = 0;
};

} // namespace incsim

#endif
