// expect: enum-underlying-new-type.p4:5:6: error: the underlying type of enum 'EthTypes' must be bit<N> or int<N>, not EthT
#include <core.p4>

type bit<16> EthT;
enum EthT EthTypes {
    IPv4 = 0x0800
}
