// expect: p4runtime-translation-type.p4:6:2: error: @p4runtime_translation of type 'Port_t': the control plane's type must be a width, bit<W> or string, not 'int<32>'
#include <core.p4>

@p4runtime_translation("example.org/Width_t", 32)
type bit<16> Width_t;
@p4runtime_translation("example.org/Port_t", int<32>)
type bit<16> Port_t;
@p4runtime_translation("example.org/Name_t", string)
type bit<16> Name_t;
@p4runtime_translation("example.org/Bits_t", bit<32>)
type bit<16> Bits_t;

control C(out Port_t x) {
    apply {
        x = (Port_t)16w1;
    }
}
