// expect: generic-struct-own-argument.p4:8:13: error: 'Box' cannot be its own type argument
#include <core.p4>

struct Box<T> {
    T value;
}
typedef Box<bit<8>> Byte_t;
typedef Box<Byte_t> Nested_t;
