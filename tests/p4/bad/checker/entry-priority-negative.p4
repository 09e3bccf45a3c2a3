// expect: entry-priority-negative.p4:21:13: error: this entry's priority would be -7 (the one before it minus priority_delta 10): entry priorities cannot be negative
#include <core.p4>

header h_t {
    bit<16> a;
}

control C(in h_t h) {
    action a(bit<8> x) { }

    table t {
        key = {
            h.a: ternary;
        }
        actions = { a; }
        largest_priority_wins = true;
        priority_delta = 10;
        entries = {
            priority = 13: 0x1 &&& 0xF: a(1);
            0x2 &&& 0xF: a(2);
            0x3 &&& 0xF: a(3);
        }
    }

    apply {
        t.apply();
    }
}
