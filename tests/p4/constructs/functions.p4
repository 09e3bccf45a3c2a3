// Functions with a body (P4_16 spec, "Functions"): the checker types their bodies, calls and
// returns. (The back end cannot generate them yet: tests/p4/bad/backend/function-body.p4.)
#include <core.p4>

bit<8> max(in bit<8> a, in bit<8> b) {
    if (a > b) {
        return a;
    } else {
        return b;
    }
}

bit<8> max3(in bit<8> a, in bit<8> b, in bit<8> c) {
    bit<8> ab = max(a, b);
    return max(ab, c);
}

void bump(inout bit<8> counter, in bit<8> by) {
    counter = counter + by;
    if (counter == 0) {
        return;
    }
    counter = counter | 1;
}

T identity<T>(in T value) {
    return value;
}

control C(inout bit<8> x) {
    action a() {
        bump(x, max3(1, 2, x));
    }
    apply {
        a();
        x = identity<bit<8>>(max(x, 4));
    }
}
