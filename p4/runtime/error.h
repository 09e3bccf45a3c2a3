#ifndef INCSIM_P4RT_ERROR_H
#define INCSIM_P4RT_ERROR_H

#include <stdexcept>
#include <string>

namespace incsim::p4rt
{

/// A control-plane request the runtime refuses (bad entry, unknown name, malformed file).
/// what() is the full message, ready to print. Where() says which part of the request was at
/// fault, as a relative JSON-pointer-like path ("match/hdr.ipv4.dstAddr", "action",
/// "params/port"), so that a file loader can point at the offending element.
class Error : public std::runtime_error
{
  public:
    explicit Error(const std::string& message, std::string where = {})
        : std::runtime_error(message),
          m_where(std::move(where))
    {
    }

    const std::string& Where() const { return m_where; }

  private:
    std::string m_where;
};

} // namespace incsim::p4rt

#endif
