#ifndef INCSIM_P4RT_NAMES_H
#define INCSIM_P4RT_NAMES_H

// P4 objects are named by their fully qualified name ("MyIngress.ipv4_lpm") or, when that is
// unambiguous, by any trailing part of it that starts after a '.' ("ipv4_lpm"), as in p4c's
// STF runner and BMv2's CLI.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace incsim::p4rt
{

/// True if `query` equals `full`, or `full` ends with "." + query.
inline bool NameMatches(std::string_view full, std::string_view query)
{
    if (query.empty() || query.size() > full.size())
    {
        return false;
    }
    if (query.size() == full.size())
    {
        return full == query;
    }
    return full.substr(full.size() - query.size()) == query &&
           full[full.size() - query.size() - 1] == '.';
}

/// Indices of `names` that `query` denotes: the exact match if there is one, else every
/// suffix match (more than one means ambiguous).
template <typename GetName>
std::vector<size_t> MatchNames(size_t count, GetName&& nameAt, std::string_view query)
{
    std::vector<size_t> suffixMatches;
    for (size_t i = 0; i < count; ++i)
    {
        const std::string_view name = nameAt(i);
        if (name == query)
        {
            return {i};
        }
        if (NameMatches(name, query))
        {
            suffixMatches.push_back(i);
        }
    }
    return suffixMatches;
}

/// "a, b, c" for messages.
template <typename GetName>
std::string JoinNames(size_t count, GetName&& nameAt, const std::vector<size_t>& which = {})
{
    std::string out;
    const size_t n = which.empty() ? count : which.size();
    for (size_t i = 0; i < n; ++i)
    {
        if (i > 0)
        {
            out += ", ";
        }
        out += nameAt(which.empty() ? i : which[i]);
    }
    return out.empty() ? "(none)" : out;
}

} // namespace incsim::p4rt

#endif
