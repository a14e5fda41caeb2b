// What infiniband-diags' check_lft_balance looks at: how many CA LIDs each
// switch sends out of each of its ports toward other switches. It flags a
// switch whose ports' counts differ by more than one. That is not
// contention: a port's LID count says how many destinations it serves, not
// how many flows of one permutation can meet on it (the worst-case
// contention, audit/audit.h), and schemes that balance the latter
// (around storage hosts on spines, for instance) leave the counts uneven on
// purpose. `ftclos audit` prints both so that the two can be compared.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"
#include "route/routing.h"

namespace ftclos {

// Ports are compared with the others of the same direction (up with up,
// down with down): a spine's ports down to leaves with different host
// counts, or a middle switch's up and down ports, differ by design.
struct LidBalance {
  int switches = 0;    // switches with two or more ports toward switches in one direction
  int unbalanced = 0;  // of them: the CA-LID counts of such ports differ by more than one
  int widest = -1;     // the switch with the widest spread, the lowest GUID of equals (-1: none)
  int fewest = 0, most = 0;  // its least and most used ports' CA-LID counts (one direction)
};

/// Counts every CA LID (every offset) per switch port that leads to a switch.
LidBalance lid_balance(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& lfts);

/// "N of M switches with ports (of one direction) whose CA-LID counts differ
/// by more than 1 (check_lft_balance's test); widest: SWITCH, A to B".
std::string lid_balance_line(const Fabric& fabric, const LidBalance& balance);

}  // namespace ftclos
