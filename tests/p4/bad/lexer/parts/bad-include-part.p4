// Included by ../error-in-include.p4 (not a test by itself: the test runs only the files
// directly in bad/lexer). The error must be reported here, not in the including file.
header part_t {
    bit<8> a;   $
}
