#include "detect/detect.h"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/fabric_parts.h"
#include "detect/common_ancestor.h"
#include "detect/family_coords.h"
#include "detect/management_leaves.h"
#include "detect/rfc.h"
#include "detect/slow_links.h"

namespace ftclos {

int FamilyMatch::param(const std::string& key) const {
  for (const FamilyParam& p : params)
    if (p.key == key && !p.values.empty()) return p.values.front();
  return 0;
}

std::string_view family_name(Family family) {
  switch (family) {
    case Family::kFtree: return "ftree";
    case Family::kKary: return "kary";
    case Family::kClos2: return "clos2";
    case Family::kPgft: return "pgft";
    case Family::kMikant: return "mikant";
    case Family::kRfc: return "rfc";
    case Family::kFoldedClos: return "folded-clos";
    case Family::kTorus: return "torus";
    case Family::kMesh: return "mesh";
    case Family::kAnyFabric: return "any-fabric";
  }
  return "?";
}

const FamilyMatch* Detection::find(Family family) const {
  for (const FamilyMatch& match : families)
    if (match.family == family) return &match;
  return nullptr;
}

const std::vector<Deviation>& Detection::deviations() const {
  static const std::vector<Deviation> kNone;
  return families.empty() ? kNone : families.front().deviations;
}

namespace {

std::vector<Deviation> joined(std::vector<Deviation> a, const std::vector<Deviation>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A family is claimed only when its deviations are few: at most one switch
// lost or out of place per 8 switches, and at most one cable deviation per
// 8 switch cables (a lost switch's cables are implied, not counted). Beyond
// that the generic folded-Clos description stands: a random folded Clos, or
// a vendor tree of another shape, fits labels only with many cables or
// switches out of place.
// The same holds for MiKANT, where a small one may lose up to 3 cables
// (MiKANT(3,2) has 9): a ring of 8 switches with 2 hosts each fits
// MiKANT(4,2) only with 8 of its 16 side cables missing.
bool plausible(const Fabric& fabric, const std::vector<Deviation>& deviations, int least = 1) {
  int switches = 0;
  for (const Deviation& d : deviations)
    switches += d.kind == Deviation::Kind::kMissingSwitch || d.kind == Deviation::Kind::kUnexpectedSwitch;
  const int cables = static_cast<int>(deviations.size()) - switches;
  return switches <= std::max(1, fabric.count(NodeType::kSwitch) / 8) &&
         cables <= std::max(least, fabric.switch_links() / 8);
}

bool all_equal(const std::vector<int>& values, size_t from, size_t to, int value) {
  for (size_t i = from; i < to; ++i)
    if (values[i] != value) return false;
  return true;
}

void add_tree_families(const Fabric& fabric, const Levels& levels, const XgftFit& fit, Detection& out) {
  const XgftShape& s = fit.labels.shape;
  const int h = s.h;
  const bool single = all_equal(s.p, 0, h, 1) && s.w[0] == 1;
  const int top = s.m[h - 1];
  // FT(m, n): m/2 hosts and children per non-top switch, m pods under the top.
  if (single && h >= 2 && top % 2 == 0 && s.m[0] <= top / 2 && all_equal(s.m, 1, h - 1, top / 2) &&
      all_equal(s.w, 1, h, top / 2)) {
    out.families.push_back({Family::kFtree, {{"m", {top}}, {"n", {h}}},
                            joined(fit.deviations, host_deviations(fabric, levels, top / 2, fit.reduced_leaf)),
                            ftree_coords(fabric, levels, fit.labels)});
  }
  if (single && h >= 2 && s.m[0] <= top && all_equal(s.m, 1, h, top) && all_equal(s.w, 1, h, top)) {
    out.families.push_back({Family::kKary, {{"k", {top}}, {"n", {h}}},
                            joined(fit.deviations, host_deviations(fabric, levels, top, fit.reduced_leaf)),
                            kary_coords(fabric, levels, fit.labels)});
  }
  const std::vector<Deviation> with_hosts =
      joined(fit.deviations, host_deviations(fabric, levels, s.m[0], fit.reduced_leaf, /*hostless_by_design=*/true));
  if (single && h == 2) {
    out.families.push_back({Family::kClos2, {{"n", {s.m[0]}}, {"m", {s.w[1]}}, {"r", {s.m[1]}}}, with_hosts,
                            clos2_coords(fabric, levels, fit.labels)});
  }
  out.families.push_back({Family::kPgft,
                          {{"h", {h}}, {"m", s.m, true}, {"w", s.w, true}, {"p", s.p, true}},
                          with_hosts,
                          pgft_coords(fabric, levels, fit.labels)});
}

int missing_switches(const std::vector<Deviation>& deviations) {
  return static_cast<int>(std::ranges::count(deviations, Deviation::Kind::kMissingSwitch, &Deviation::kind));
}

// Where the tree fits as well without its thin leaves (at most half a
// leaf's uplinks or spines: a reduced leaf keeps more), and the spines with
// only thin leaves below, and lacks no switch for it
// (a leaf that lost half its cables leaves a hole; a management leaf is
// one more), they are management leaves: the fit without them stands and
// their CAs (ANs aside) become attached hosts of a level-1 switch.
void set_management_leaves_aside(const Fabric& fabric, Result<XgftFit>& tree, Detection& out) {
  const std::vector<int> thin = thin_leaves(fabric, out.levels);
  if (thin.empty()) return;
  const std::vector<int> spines = management_spines(fabric, out.levels, thin);
  std::vector<int> set_aside = thin;
  set_aside.insert(set_aside.end(), spines.begin(), spines.end());
  Result<XgftFit> without = fit_xgft_without(fabric, out.levels, set_aside);
  if (!without.ok()) return;
  if (tree.ok() && (without->deviations.size() > tree->deviations.size() ||
                    missing_switches(without->deviations) > missing_switches(tree->deviations)))
    return;
  tree = std::move(without);
  std::ranges::move(management_leaf_gaps(fabric, out.levels, thin), std::back_inserter(tree->deviations));
  out.management_leaves = thin;
  out.management_spines = spines;
  out.levels.management = set_aside;
  std::ranges::sort(out.levels.management);
  std::vector<int>& attached = out.levels.io_hosts;
  for (int x : set_aside)
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && !fabric.node(port.peer.node).is_switch()) attached.push_back(port.peer.node);
  std::ranges::sort(attached);
  attached.erase(std::unique(attached.begin(), attached.end()), attached.end());
}

// Recognition with the leaves fixed.
Detection detect_with(const Fabric& fabric, Levels given) {
  Detection out;
  out.levels = std::move(given);
  const Levels& levels = out.levels;
  Result<XgftFit> tree = fit_xgft(fabric, levels);
  set_management_leaves_aside(fabric, tree, out);
  out.updown_routable = every_leaf_pair_has_common_ancestor(fabric, levels);
  const bool folded_clos = tree.ok();
  if (folded_clos && plausible(fabric, tree->deviations)) {
    add_tree_families(fabric, levels, *tree, out);
    out.xgft = tree->labels;
  }
  if (!folded_clos) {
    Result<MikantFit> mirrored = fit_mikant(fabric, levels);
    if (mirrored.ok() && !plausible(fabric, mirrored->deviations, 3))
      mirrored = Status::Error(fmt::format("MiKANT({},{}) fits only with {} deviations", mirrored->labels.k,
                                           mirrored->labels.n, mirrored->deviations.size()));
    if (mirrored.ok()) {
      const MikantLabels& labels = mirrored->labels;
      out.families.push_back({Family::kMikant, {{"k", {labels.k}}, {"n", {labels.n}}},
                              joined(mirrored->deviations, host_deviations(fabric, levels, labels.k)),
                              mikant_coords(fabric, labels)});
      out.mikant = labels;
    } else {
      out.unknown_reason = fmt::format("not a folded Clos ({}); not a MiKANT ({})", tree.status().message(),
                                       mirrored.status().message());
    }
    return out;
  }
  const std::vector<std::string> plain = level_coords(fabric, levels);
  if (std::optional<RfcFit> rfc = fit_rfc(fabric, levels)) {
    out.families.push_back({Family::kRfc, {{"radix", {rfc->radix}}, {"leaves", {rfc->leaves}}, {"levels", {rfc->levels}}},
                            joined(rfc->deviations, host_deviations(fabric, levels, rfc->radix / 2)), plain});
  }
  // Levels alone make no folded Clos when leaves share no ancestor: a ring,
  // a torus or a hypercube is bipartite, and half its switches would pass
  // for spines carrying storage.
  if (out.families.empty() && !out.updown_routable) {
    out.unknown_reason = fmt::format("not a folded Clos ({} levels, but some leaves share no ancestor)", levels.height);
    return out;
  }
  out.families.push_back({Family::kFoldedClos, {{"levels", {levels.height}}}, {}, plain});
  return out;
}

// A family of ours before the generic folded Clos before none, then fewer
// deviations, then more hosts taken as compute hosts, then the more
// specific family; with no family anywhere, the guess that takes every CA
// as a compute host says why best.
bool fits_better(const Detection& a, const Detection& b) {
  auto score = [](const Detection& d) {
    const Family family = d.families.empty() ? Family::kFoldedClos : d.families.front().family;
    return std::tuple(d.families.empty(), family == Family::kFoldedClos, d.deviations().size(),
                      d.levels.io_hosts.size(), family);
  };
  return score(a) < score(b);
}

// A torus or mesh within plausible()'s cable deviations (no lost switch:
// the grid would have a hole the search does not place).
void add_torus_family(const Fabric& fabric, Detection& out) {
  std::optional<TorusFit> fit = fit_torus(fabric, std::max(1, fabric.switch_links() / 8));
  if (!fit) return;
  TorusLabels& labels = fit->labels;
  const bool wraps = std::ranges::find(labels.wraps, true) != labels.wraps.end();
  std::vector<FamilyParam> params{{"dims", labels.dims, true, true}};
  if (wraps && std::ranges::find(labels.wraps, false) != labels.wraps.end()) {
    std::vector<int> ring;
    for (bool wrap : labels.wraps) ring.push_back(wrap);
    params.push_back({"ring", ring, true});
  }
  out.families.push_back({wraps ? Family::kTorus : Family::kMesh, std::move(params), std::move(fit->deviations),
                          torus_coords(fabric, labels)});
  out.torus = std::move(labels);
}

}  // namespace

Detection detect(const Fabric& fabric, const HostHints& hints) {
  if (const auto parts = fabric_parts(fabric); parts.size() > 1) {
    Detection split;
    split.levels = levels_from_leaves(fabric, leaf_guesses(fabric, hints).front());
    split.unknown_reason = "physically disconnected, " + describe_parts(fabric, parts);
    return split;
  }
  const std::vector<std::vector<bool>> guesses = leaf_guesses(fabric, hints);
  Detection best = detect_with(fabric, levels_from_leaves(fabric, guesses.front()));
  for (size_t i = 1; i < guesses.size(); ++i) {
    Detection other = detect_with(fabric, levels_from_leaves(fabric, guesses[i]));
    if (fits_better(other, best)) best = std::move(other);
  }
  // Connected but of no family with levels to route by: the up*/down*
  // floor routes it (paths/updown_star.h).
  best.star = choose_star_roots(fabric, best.levels, hints);
  if (best.families.empty()) {
    best.not_clos_reason = std::exchange(best.unknown_reason, {});
    add_torus_family(fabric, best);
    best.families.push_back({Family::kAnyFabric,
                             {{"switches", {fabric.count(NodeType::kSwitch)}},
                              {"roots", {static_cast<int>(best.star.roots.size())}}},
                             {},
                             std::vector<std::string>(fabric.size())});
  }
  // Rates do not change what the fabric is, only how well it runs: they are
  // judged once the levels are chosen.
  std::vector<Deviation> slow = slow_links(fabric, best.levels);
  best.slow_by_design = take_slow_by_design(fabric, slow);
  for (FamilyMatch& family : best.families) family.deviations = joined(std::move(family.deviations), slow);
  return best;
}

}  // namespace ftclos
