// expect: parser-loop-without-extract.p4:13:11: error: parser 'MyParser' loops without extracting: next -> again -> next
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
struct headers_t { h_t h; }

parser MyParser(packet_in packet, out headers_t hdr) {
    state start {
        packet.extract(hdr.h);
        transition next;
    }
    state next {
        transition again;
    }
    state again {
        transition next;
    }
}
