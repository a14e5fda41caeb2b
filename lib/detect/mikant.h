// Recognition of Li and Chu's mirrored k-ary n-tree MiKANT(k, n): two k-ary
// n-tree halves (groups 0 and 1) whose top stages (stage n-2) are cabled to
// each other. Labels are the paper's: switch <G, L, D_{n-2}..D_0>, host
// <G, C_{n-1}..C_0>, following the cabling (ties broken by GUID).
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/deviation.h"
#include "detect/levels.h"

namespace ftclos {

struct MikantLabels {
  int k = 0;
  int n = 0;
  std::vector<int> group;  // per node; -1 when unlabeled
  std::vector<int> stage;  // per switch: L = level - 1; -1 for hosts
  /// Per switch D_0..D_{n-2} at [0..n-2]; per host C_0..C_{n-1}; empty when unlabeled.
  std::vector<std::vector<int>> digits;
};

struct MikantFit {
  MikantLabels labels;
  std::vector<Deviation> deviations;  // switch cables and switches; hosts per host_deviations
};

/// Fails with the reason when the fabric is no MiKANT.
Result<MikantFit> fit_mikant(const Fabric& fabric, const Levels& levels);

}  // namespace ftclos
