// expect: signed-too-wide.p4:3:18: error: integer literal 4s8 does not fit in 4 signed bits (int<4>)
// int<4> holds -8..7.
const int<4> X = 4s8;
