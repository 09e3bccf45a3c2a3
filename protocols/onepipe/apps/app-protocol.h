#ifndef INCSIM_ONEPIPE_APPS_APP_PROTOCOL_H
#define INCSIM_ONEPIPE_APPS_APP_PROTOCOL_H

#include "protocols/onepipe/onepipe-protocol.h"

#include <memory>
#include <vector>

namespace incsim::onepipe::apps
{

/// An application protocol on 1Pipe's processes (docs/onepipe-apps.md): OnePipeProtocol's
/// switches, hosts and endpoints, with an `App` on the processes that run one (the derived
/// protocol's AttachApplication adds them), all started together.
template <typename App>
class AppProtocol : public OnePipeProtocol
{
  protected:
    void StartApplications() override
    {
        for (auto& app : m_apps)
        {
            app->Start();
        }
    }

    std::vector<std::unique_ptr<App>> m_apps;
};

} // namespace incsim::onepipe::apps

#endif
