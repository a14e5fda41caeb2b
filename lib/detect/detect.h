// Recognition: which families of our papers a fabric is, with parameters,
// a label per node in each family's own numbering, and what deviates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "detect/deviation.h"
#include "detect/levels.h"
#include "detect/mikant.h"
#include "detect/star_roots.h"
#include "detect/torus.h"
#include "detect/xgft.h"

namespace ftclos {

struct FamilyParam {
  std::string key;
  std::vector<int> values;
  bool is_list = false;  // pgft's m/w/p are lists, the others numbers
  bool is_shape = false; // a torus's dims: people read "4x4", not "dims=4,4"
};

/// The families recognition knows, most specific first; kAnyFabric is what a
/// connected fabric of none of the others is (ring, torus, cables inside a
/// level, vendor chassis of chassis): the up*/down* floor routes it. A torus
/// or mesh (detect/torus.h) is an any-fabric too, listed before it.
enum class Family : uint8_t { kFtree, kKary, kClos2, kPgft, kMikant, kRfc, kFoldedClos, kTorus, kMesh, kAnyFabric };

/// "ftree", "kary", "clos2", "pgft", "mikant", "rfc", "folded-clos", "torus",
/// "mesh", "any-fabric".
std::string_view family_name(Family family);

struct FamilyMatch {
  Family family;
  std::vector<FamilyParam> params;
  std::vector<Deviation> deviations;
  std::vector<std::string> coords;  // per node; empty where the family has none

  int param(const std::string& key) const;
  std::string_view name() const { return family_name(family); }
};

struct Detection {
  Levels levels;
  std::vector<FamilyMatch> families;  // most specific first; empty when unknown
  std::string unknown_reason;         // why no family fits, when none does
  std::string not_clos_reason;        // any-fabric: why it is neither a folded Clos nor a MiKANT
  StarRoots star;                     // up*/down* roots and ranks; empty when physically disconnected
  bool updown_routable = false;       // every pair of leaves has a common ancestor
  std::optional<XgftLabels> xgft;     // the labels schemes route by, when a PGFT fits
  std::optional<MikantLabels> mikant;
  std::optional<TorusLabels> torus;    // the grid DOR routes by, when a torus or mesh fits
  std::vector<int> management_leaves;  // thin leaves the tree was fitted without (detect/management_leaves.h)
  std::vector<int> management_spines;  // level-2 switches with only management leaves below, fitted without too
  std::vector<Deviation> slow_by_design;  // slow host cables that are no deviation (detect/slow_links.h)

  const FamilyMatch* find(Family family) const;
  /// The deviations of the most specific family; empty when unknown.
  const std::vector<Deviation>& deviations() const;
  bool degraded() const { return !deviations().empty(); }
};

/// Recognizes `fabric` (an end-node fabric, core/end_nodes.h); `hints` say
/// which CAs compute, which are attached and which switches are roots.
Detection detect(const Fabric& fabric, const HostHints& hints = {});

}  // namespace ftclos
