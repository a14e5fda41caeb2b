// Path bits that never hurt. A source-class scheme's path bits are chosen
// for its bound on the fabric it was written for; below the LMC that bound
// needs, on degraded fabrics or with attached hosts, the hosts on their
// path bits can meet a higher worst case than the same tables give every
// host on offset 0 (measured: mlid on a 4-ary 3-tree at LMC 2, 8 against 4;
// nonblocking on FT(8,3) with 4 cables down, 14 against 8). Offset 0 is
// what every host that does not know its bits sends on anyway, so where
// the bits measure worse, every host is given offset 0 instead: the path
// bits are then exactly as good as offset 0, never worse. All hosts or none:
// giving offset 0 to one class of hosts at a time, kept where it lowered the
// worst case, never got below offset 0's figure on the fabrics and LMCs
// multilid_offsets_test.cc checks (mlid on the 4-ary 3-tree at LMC 2: 8 ->
// 7, offset 0 4), so it would cost up to 2^lmc more measures for nothing.
#pragma once

#include "route/routing.h"

namespace ftclos {

/// The worst case of `routing`'s tables with every host on offset 0, by
/// `input`'s measure (which must be given); `routing` is left as it was.
double offset_zero_measure(const RoutingInput& input, Routing& routing);

/// Where `input` hands down a worst-case measure, the LIDs have LMC > 0 and
/// some CA of `routing` has path bits other than 0: measures every host on
/// its path bits and every host on offset 0 and, where the first is higher,
/// sets every path bit to 0 and notes both figures. Otherwise leaves
/// `routing` as it is.
void fall_back_to_offset_zero(const RoutingInput& input, Routing& routing);

}  // namespace ftclos
