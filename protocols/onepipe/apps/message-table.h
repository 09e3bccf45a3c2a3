#ifndef INCSIM_ONEPIPE_APPS_MESSAGE_TABLE_H
#define INCSIM_ONEPIPE_APPS_MESSAGE_TABLE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace incsim::onepipe::apps
{

/// An application's messages in flight, named by tag (index + 1; the endpoint carries it as
/// Outgoing::tag), their storage reused: no allocation per message once warm.
template <typename Message>
class MessageTable
{
  public:
    uint64_t Acquire()
    {
        if (!m_free.empty())
        {
            const uint64_t tag = m_free.back();
            m_free.pop_back();
            return tag;
        }
        m_messages.emplace_back();
        return m_messages.size();
    }
    Message& Get(uint64_t tag) { return m_messages[tag - 1]; }
    void Release(uint64_t tag) { m_free.push_back(tag); }
    size_t InFlight() const { return m_messages.size() - m_free.size(); }

  private:
    std::vector<Message> m_messages;
    std::vector<uint64_t> m_free;
};

} // namespace incsim::onepipe::apps

#endif
