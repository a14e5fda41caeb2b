// Yuan's local adaptive routing NONBLOCKINGADAPTIVE ("Nonblocking
// folded-Clos networks", §V, Fig. 4) as an offline plan for one permutation
// on a 2-level Clos ftree(n+m, r), and the LFTs that carry it out.
//
// Leaves are numbered with c base-n digits s_{c-1}..s_0 (n^c >= r), hosts
// with one more, s_{c-1}..s_0 p. A configuration is c+1 partitions of n top
// switches; in partition 1 top t carries destinations with p = t, in
// partition i >= 2 destinations with (s_{i-2} - p) mod n = t, so each
// partition is Class DIFF (Lemma 4) and the SD pairs of one leaf whose keys
// differ cross it without contention (Lemma 5). Per source leaf the plan
// opens configurations one at a time and fills unused partitions with the
// largest subset of its pairs that fits (ties: the partition adding the
// fewest top switches to those earlier leaves use, then the lowest), then
// the same partition of the same configuration of every leaf is merged onto
// the same top switches (Fig. 4, lines 14-15). Beyond the figure, only
// (partition, top) slots some pair uses get a physical top switch, numbered
// in slot order: contention-freedom needs only that distinct slots get
// distinct switches.
//
// The routing that carries the plan ("top-select"): LID offset o of every CA
// goes up to top switch o mod m (by XGFT label) from any other leaf, so a
// source sends to base(d) + top(s, d); LMC = ceil(log2 m).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos {

/// A 2-level Clos as the plan sees it, from the XGFT labels.
struct ClosShape {
  int n = 0;                  // hosts per leaf
  int m = 0;                  // top switches
  int r = 0;                  // leaves
  std::vector<int> leaf;      // per node: leaf number of a host or leaf switch, -1 otherwise
  std::vector<int> local;     // per node: host number within its leaf, -1 otherwise
  std::vector<int> top;       // per node: top-switch number, -1 otherwise
};

/// Fails unless the detection found an intact single-cable 2-level Clos.
Result<ClosShape> clos_shape(const Fabric& fabric, const Detection& detection);

struct PlannedPair {
  int source = -1;       // CA node indices
  int destination = -1;
  int top = -1;          // top switch (ClosShape numbering); -1 when both are on one leaf
  int configuration = -1, partition = -1;  // Fig. 4's, partition 1-based
};

struct AdaptivePlan {
  int digits = 0;                    // c
  std::vector<PlannedPair> pairs;    // in input order
  int tops_used = 0;                 // distinct top switches carrying pairs
  int partitions_used = 0;           // distinct (configuration, partition) slots, each n tops in the paper
};

/// Plans a permutation (CA node pairs; no source or destination twice).
/// Fails when it is no permutation or needs more top switches than m.
Result<AdaptivePlan> plan_nonblocking_adaptive(const ClosShape& shape, const std::vector<std::pair<int, int>>& permutation);

/// The top-select LFTs for `lids` (whose LMC should reach m offsets).
Result<Lfts> top_select_lfts(const Fabric& fabric, const ClosShape& shape, const LidMap& lids);

/// Reads `src_name dst_name` lines ('#' comments, blank lines allowed) into CA
/// node pairs; errors name the line.
Result<std::vector<std::pair<int, int>>> parse_permutation(const Fabric& fabric, const std::string& text,
                                                           const std::string& source);

}  // namespace ftclos
