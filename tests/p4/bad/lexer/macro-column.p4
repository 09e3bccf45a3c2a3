// expect: macro-column.p4:6:34: error: unexpected character '`'
// Columns stay right after a macro expansion and runs of spaces, which cpp collapses.
#define WIDTH 16

header h_t {
    bit<WIDTH>       field;      `
}
