// expect: bad-binary-digit.p4:3:21: error: invalid digit '2' in binary literal 0b1021
// Binary literals take only 0 and 1.
const bit<4> MASK = 0b1021;
