// expect: unterminated-comment.p4:6:5: error: unterminated comment
header h_t {
    bit<8> a;
}

    /* this comment never ends
header g_t {
    bit<8> b;
}
