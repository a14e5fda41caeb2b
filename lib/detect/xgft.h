// Recognition of generalized fat-trees PGFT(h; m; w; p) (Zahavi; Ohring's
// XGFT when p = 1), which covers FT(m,n), k-ary n-trees and ftree(n+m,r).
//
// Labels follow the cabling, not the file: a level-l node is labeled
// (a_h..a_{l+1}, b_l..b_1), where a_i (< m_i) says which sub-tree of a
// level-i node it lies in (sub-trees are the connected components of the
// levels <= i-1) and b_i (< w_i) tells apart the level-i switches above the
// same switches below. Level-l and level-(l+1) nodes are cabled iff their
// labels agree everywhere but position l+1. Ties between equivalent nodes are
// broken by GUID, so a file listing nodes or ports in another order gets the
// same labels.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/deviation.h"
#include "detect/levels.h"

namespace ftclos {

struct XgftShape {
  int h = 0;
  std::vector<int> m;  // m[i]: children of a level-(i+1) node (m[0]: hosts per leaf)
  std::vector<int> w;  // w[i]: parents of a level-i node (w[0] = 1: one port per host)
  std::vector<int> p;  // p[i]: cables between a level-i node and each parent

  /// How many nodes level `level` (0 = hosts) has.
  long nodes_at(int level) const;
};

struct XgftLabels {
  XgftShape shape;
  /// Per node: digit of position i+1 at [i], i < h; empty for an unlabeled node.
  std::vector<std::vector<int>> digits;
  /// Per level 0..h: the node holding each label code, or -1.
  std::vector<std::vector<int>> node_at;

  /// Mixed-radix code of a label at `level` (radix w_i for i <= level, m_i above).
  long code(int level, const std::vector<int>& digits) const;
};

struct XgftFit {
  XgftLabels labels;
  /// Switch and switch-cable deviations; host counts are judged per family
  /// (see host_deviations).
  std::vector<Deviation> deviations;
  /// Leaves built with fewer hosts and as many fewer parallel uplinks as
  /// the full leaves' ratio allows (vendor configurators populate leaves
  /// this way): neither their free host ports nor those uplinks deviate.
  std::vector<bool> reduced_leaf;
};

/// Fits the fabric to the PGFT whose parameters are the largest counts seen
/// (so missing cables and switches show as deviations). Fails with the reason
/// when the fabric is no folded Clos or has no PGFT structure.
Result<XgftFit> fit_xgft(const Fabric& fabric, const Levels& levels);

/// One deviation per host a leaf lacks against `hosts_per_leaf`, except on
/// the leaves marked in `reduced_leaf` (indexed by node; may be empty) and,
/// with `hostless_by_design` (families whose hosts per leaf are the most
/// seen: a director site's gateway or spare edge switches, a storage
/// fabric's hostless leaves), on leaves without hosts. Families that fix
/// the hosts per leaf from the switches (FT, k-ary) count them missing.
std::vector<Deviation> host_deviations(const Fabric& fabric, const Levels& levels, int hosts_per_leaf,
                                       const std::vector<bool>& reduced_leaf = {}, bool hostless_by_design = false);

/// Cables between a host and a switch per leaf: the host ports of `node`
/// (its SHARP Aggregation Node is no host).
int hosts_on(const Fabric& fabric, int node);

}  // namespace ftclos
