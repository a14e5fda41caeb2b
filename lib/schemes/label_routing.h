// Routing by PGFT labels, shared by the closed-form tree schemes (dmodk,
// nonblocking, osrm, mlid): a scheme states only which up link a switch
// takes toward a destination for a source class; this file turns that into
// LFTs for every LID fast, and routes switch LIDs and degraded fabrics.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "route/routing.h"

namespace ftclos {

struct LabelRule {
  /// Source classes the rule tells apart; offset o of a LID range is class
  /// o mod classes, so offsets no source uses still lead to the CA.
  int classes = 1;
  /// The class of a source CA by its digits: p(s) before reduction mod 2^lmc.
  std::function<int(const std::vector<int>& source)> class_of;
  /// The up slot j in [0, w_{l+1} p_{l+1}) a level-l switch not above the
  /// destination takes for class c: parent b_{l+1} = j mod w_{l+1}, over its
  /// (j / w_{l+1})-th parallel cable. It may not depend on the switch.
  std::function<long(int level, int c, const std::vector<int>& dest)> up_slot;
};

/// LFTs for every LID of a fabric with PGFT labels (input.detection.xgft):
/// down where the CA hangs below the switch (over the parallel cable its own
/// up slot one level lower uses), otherwise up by the rule. Switch LIDs go
/// up/down. On a degraded fabric, entries the missing cables and switches
/// break move to up/down ports that still deliver (Routing::rerouted).
Routing route_by_labels(const RoutingInput& input, const LabelRule& rule);

/// Source classes made of a source's digits at levels 1..h-1, lowest level
/// first: level l contributes values[l] values, as far as 2^lmc LIDs reach;
/// where they run out a level keeps its digit modulo what is left (1: none).
struct DigitClasses {
  DigitClasses(const std::vector<int>& values, int lids_per_ca);

  int classes = 1;  // classes that fit the LIDs
  long full = 1;    // classes the rule wants
  std::vector<int> radix, place;

  int class_of(const std::vector<int>& source) const;
  /// The level-l digit class c holds.
  int digit(int c, int level) const { return c / place[level] % radix[level]; }
};

/// The classes a rule with these digit values wants (DigitClasses::full), for
/// the LMC a scheme needs before it routes.
long full_classes(const std::vector<int>& values);

/// Fails unless the fabric has PGFT labels and every host one leaf over one
/// cable: what the source-digit schemes (nonblocking, osrm, mlid) need.
/// Parallel cables between switches are fine: they are up slots.
Status require_tree_labels(const Detection& detection, std::string_view scheme);

/// Up slots of a level-l switch, w_{l+1} p_{l+1}: slot j is parent j mod
/// w_{l+1} over its (j / w_{l+1})-th cable. A packet goes down over the cable
/// index it went up by (route_by_labels), so on two levels slot j acts as one
/// top switch of a Clos with w_2 p_2 of them: its up channel out of a leaf and
/// its down channel into a leaf carry only the pairs that chose slot j.
int up_slots(const XgftShape& shape, int level);

/// Smallest b with 2^b >= n: the LMC that gives n LIDs per CA.
int ceil_log2(long n);

}  // namespace ftclos
