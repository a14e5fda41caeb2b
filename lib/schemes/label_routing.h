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
///
/// Offset 0 of a source-class rule (classes > 1) where some hosts do not
/// know their path bits (PathBitsUsers::kSome): those hosts all send to
/// base(d) + 0, so whichever class held offset 0 would carry every source
/// at once; a class rule routes its class's few sources, not all (OSRM3's
/// class picks the leaf's parent by the source alone: all on one parent,
/// worst case 16 on FT(8,3) against D-mod-k's 7). So offset 0 routes by
/// D-mod-k (dmodk_up_slot) and class c takes offset c + 1: p(s) = class +
/// 1, and the scheme's classes fit class_lids(), one LID fewer. With kSome,
/// offset 0 is polished (route/contention_polish.h) where the fabric is
/// degraded or has attached hosts, as dmodk is.
Routing route_by_labels(const RoutingInput& input, const LabelRule& rule);

/// D-mod-k's up slot (route/scheme_dmodk.cc) of a level-l switch toward
/// `dest` on LID offset o: (index of dest + o) / (w_1 ... w_l) mod w_{l+1} p_{l+1}.
long dmodk_up_slot(const XgftLabels& labels, int level, const std::vector<int>& dest, int offset);

/// The LIDs of a CA's range a source-class rule may give its classes: all
/// of them with PathBitsUsers::kAll, all but offset 0 otherwise (above).
int class_lids(const RoutingInput& input);

/// The LMC `classes` source classes need for these users (one LID more
/// with kSome: offset 0 is D-mod-k's).
int lmc_for_classes(long classes, PathBitsUsers users);

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
