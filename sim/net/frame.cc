#include "sim/net/frame.h"

namespace incsim
{

void
FrameReturner::operator()(Frame* frame) const
{
    FramePool::Instance().Release(frame);
}

FramePool&
FramePool::Instance()
{
    static FramePool pool;
    return pool;
}

FramePtr
FramePool::Allocate()
{
    Frame* frame;
    if (m_free.empty())
    {
        m_all.push_back(std::make_unique<Frame>());
        frame = m_all.back().get();
    }
    else
    {
        frame = m_free.back();
        m_free.pop_back();
    }
    ++m_outstanding;
    frame->uid = m_nextUid++;
    frame->createdPs = 0;
    frame->length = 0;
    frame->wireLength = 0;
    frame->meta = StandardMetadata{};
    return FramePtr(frame);
}

FramePtr
FramePool::Clone(const Frame& source, size_t stateBytes)
{
    FramePtr copy = Allocate();
    uint64_t uid = copy->uid;
    copy->createdPs = source.createdPs;
    copy->length = source.length;
    copy->wireLength = source.wireLength;
    copy->meta = source.meta;
    std::memcpy(copy->data, source.data, source.length);
    std::memcpy(copy->pipelineState, source.pipelineState, stateBytes);
    copy->uid = uid;
    return copy;
}

void
FramePool::Release(Frame* frame)
{
    --m_outstanding;
    m_free.push_back(frame);
}

} // namespace incsim
