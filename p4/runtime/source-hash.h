#ifndef INCSIM_P4RT_SOURCE_HASH_H
#define INCSIM_P4RT_SOURCE_HASH_H

#include <cstdint>
#include <string_view>

namespace incsim::p4rt
{

/// 64-bit FNV-1a: the hash the compiler records for generated code and for every P4 source
/// file a program was compiled from, and that the target recomputes to find a stale build.
inline uint64_t
SourceHash(std::string_view bytes)
{
    uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : bytes)
    {
        hash = (hash ^ c) * 0x100000001b3ull;
    }
    return hash;
}

} // namespace incsim::p4rt

#endif
