// expect: parser-in-control.p4:6:28: error: 'p': a control cannot instantiate a parser
#include <core.p4>

parser P(packet_in pkt);

control C(packet_in pkt)(P p) {
    apply { p.apply(pkt); }
}
