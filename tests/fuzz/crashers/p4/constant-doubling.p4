#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; }
struct meta_t { bit<8> x; }
const bit<8> c0 = 1;
const bit<8> c1 = c0 + c0;
const bit<8> c2 = c1 + c1;
const bit<8> c3 = c2 + c2;
const bit<8> c4 = c3 + c3;
const bit<8> c5 = c4 + c4;
const bit<8> c6 = c5 + c5;
const bit<8> c7 = c6 + c6;
const bit<8> c8 = c7 + c7;
const bit<8> c9 = c8 + c8;
const bit<8> c10 = c9 + c9;
const bit<8> c11 = c10 + c10;
const bit<8> c12 = c11 + c11;
const bit<8> c13 = c12 + c12;
const bit<8> c14 = c13 + c13;
const bit<8> c15 = c14 + c14;
const bit<8> c16 = c15 + c15;
const bit<8> c17 = c16 + c16;
const bit<8> c18 = c17 + c17;
const bit<8> c19 = c18 + c18;
const bit<8> c20 = c19 + c19;
const bit<8> c21 = c20 + c20;
const bit<8> c22 = c21 + c21;
const bit<8> c23 = c22 + c22;
const bit<8> c24 = c23 + c23;
const bit<8> c25 = c24 + c24;
const bit<8> c26 = c25 + c25;
const bit<8> c27 = c26 + c26;
const bit<8> c28 = c27 + c27;
const bit<8> c29 = c28 + c28;
const bit<8> c30 = c29 + c29;
const bit<8> c31 = c30 + c30;
const bit<8> c32 = c31 + c31;
const bit<8> c33 = c32 + c32;
const bit<8> c34 = c33 + c33;
const bit<8> c35 = c34 + c34;
const bit<8> c36 = c35 + c35;
const bit<8> c37 = c36 + c36;
const bit<8> c38 = c37 + c37;
const bit<8> c39 = c38 + c38;
const bit<8> c40 = c39 + c39;
const bit<8> c41 = c40 + c40;
const bit<8> c42 = c41 + c41;
const bit<8> c43 = c42 + c42;
const bit<8> c44 = c43 + c43;
const bit<8> c45 = c44 + c44;
const bit<8> c46 = c45 + c45;
const bit<8> c47 = c46 + c46;
const bit<8> c48 = c47 + c47;
const bit<8> c49 = c48 + c48;
const bit<8> c50 = c49 + c49;
const bit<8> c51 = c50 + c50;
const bit<8> c52 = c51 + c51;
const bit<8> c53 = c52 + c52;
const bit<8> c54 = c53 + c53;
const bit<8> c55 = c54 + c54;
const bit<8> c56 = c55 + c55;
const bit<8> c57 = c56 + c56;
const bit<8> c58 = c57 + c57;
const bit<8> c59 = c58 + c58;
const bit<8> c60 = c59 + c59;
const bit<8> c61 = c60 + c60;
const bit<8> c62 = c61 + c61;
const bit<8> c63 = c62 + c62;
const bit<8> c64 = c63 + c63;
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {

apply {
m.x = c64;
}
}

parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t sm) { state start { transition accept; } }
control V(inout headers_t h, inout meta_t m) { apply {} }
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply {} }
control C(inout headers_t h, inout meta_t m) { apply {} }
control D(packet_out p, in headers_t h) { apply {} }
V1Switch(P(), V(), I(), E(), C(), D()) main;
