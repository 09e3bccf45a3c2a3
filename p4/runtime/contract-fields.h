#ifndef INCSIM_P4RT_CONTRACT_FIELDS_H
#define INCSIM_P4RT_CONTRACT_FIELDS_H

#include <cstdint>

namespace incsim::p4rt
{

// Where a header field of a generated contract (NAME-contract.h: kOffset and kWidth in bits,
// from the start of its header) sits in bytes, for the hand-written C++ that encodes it. A
// field that does not fit the assumed shape fails the build, so a change of the P4 header
// that the C++ does not follow cannot go unnoticed.

/// The first byte of a field that fills whole bytes.
template <typename Field>
constexpr uint32_t
ByteOf()
{
    static_assert(Field::kOffset % 8 == 0 && Field::kWidth % 8 == 0,
                  "the C++ encoding reads this field as whole bytes");
    return Field::kOffset / 8;
}

/// The byte that holds a one-bit field.
template <typename Field>
constexpr uint32_t
FlagByteOf()
{
    static_assert(Field::kWidth == 1, "a flag is one bit");
    return Field::kOffset / 8;
}

/// The mask of a one-bit field within its byte (FlagByteOf).
template <typename Field>
constexpr uint8_t
FlagBit()
{
    static_assert(Field::kWidth == 1, "a flag is one bit");
    return static_cast<uint8_t>(0x80u >> (Field::kOffset % 8));
}

} // namespace incsim::p4rt

#endif
