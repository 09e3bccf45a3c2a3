// expect: bad-suffix.p4:3:23: error: invalid suffix 'ms' on integer literal 100ms
// P4 literals have no units.
const bit<32> DELAY = 100ms;
