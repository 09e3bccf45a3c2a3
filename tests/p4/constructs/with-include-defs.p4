// Included by with-include.p4.

header from_include_t {
    bit<16>     marker_in_include;
}
