#ifndef INCSIM_P4RT_VALUE_PARSE_H
#define INCSIM_P4RT_VALUE_PARSE_H

// Text forms of control-plane values, shared by the entries-file loader and the STF parser.
//
//   decimal      12345 (any width)
//   hex          0x0a00ff (any width), binary 0b1010
//   IPv4         10.0.0.1 (32 bits)
//   MAC          aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff (48 bits)
//   IPv6         2001:db8::1 (128 bits; "::" compression, no embedded IPv4)
//
// Match values add:  value/len (lpm), value&&&mask (ternary), * (wildcard).

#include "p4/runtime/bit-string.h"
#include "p4/runtime/table.h"

#include <optional>
#include <string_view>

namespace incsim::p4rt
{

/// The value written as `text` in any of the forms above; nullopt if it is none of them.
std::optional<BitString> ParseValue(std::string_view text);

/// A key field match: "10.0.0.0/8", "0x0800&&&0xffff", "*", or a plain value (exact).
/// Throws Error saying what is wrong.
MatchValue ParseMatchValue(std::string_view text);

/// A plain value; throws Error naming the accepted forms.
BitString ParseValueOrThrow(std::string_view text);

} // namespace incsim::p4rt

#endif
