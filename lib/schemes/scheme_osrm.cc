// "osrm": Yuan et al.'s optimal single-path oblivious routing ("Oblivious
// routing in fat-tree based system area networks", §V). It rests on Lemma 9:
// when every channel carries traffic from at most X sources or to at most X
// destinations, the oblivious performance ratio is at most X.
//
// OSRM2 (Fig. 9) on FT(m,2) and any 2-level Clos ftree(n+T, r): the n hosts
// of a leaf form Z_s source groups of N_s = ceil(n/Z_s) and Z_d destination
// groups of N_d = ceil(n/Z_d); source group g sends to destination group e
// of another leaf through top switch g*Z_d + e. An up channel then carries at
// most N_s sources, a down channel at most N_d destinations: sqrt(m/2) on
// FT(m,2) when that is an integer (Theorem 6). Fig. 9 is garbled in our copy
// (top switch "s1/N_s * N_d + d1/N_d", which passes the last top switch on
// FT(12,2)); rebuilt from the prose: Z_s = ceil(sqrt(m/2)), Z_d =
// floor(sqrt(m/2)), group j of a leaf holds hosts j*N..j*N+N-1, and "up link
// j carries source group j/Z and destination group j mod Z", i.e. top switch
// (s1/N_s)*Z_d + d1/N_d. Beyond the paper: where ceil*floor > T (T = 5, 11,
// 19, ...: the group pairs would outnumber the top switches) Z_s drops to
// floor(T/Z_d); with fewer LIDs than Z_s, Z_s drops to 2^LMC and Z_d grows to
// floor(T/Z_s). p(s) = the source group.
//
// On a 2-level PGFT the top switches are the leaf's up slots, T = w_2 p_2
// (schemes/label_routing.h: slot j is spine j mod w_2 over cable j / w_2, up and
// down), so OSRM2 runs on T of them, T < n included (oversubscribed leaves).
// The bound it keeps, with R leaves: the up channel of slot g*Z_d + e out of
// a leaf carries source group g (at most N_s sources) to group e of the R-1
// other leaves (at most N_d destinations), the down channel into a leaf
// group e (N_d) from group g of the others ((R-1) N_s), so by Lemma 9
//   worst-case contention <= max(min(N_s, (R-1) N_d), min(N_d, (R-1) N_s)),
// max(N_s, N_d) wherever R-1 >= n, as on FT(m,2). With few leaves the
// terms can win, so the groups are the paper's unless another split
// (Z_s <= the LIDs, Z_s Z_d <= T) has a smaller bound, fewest source groups
// first: on 4 leaves of 24 hosts with 12 slots (2 spines, 6 cables each) the
// paper's 4 x 3 groups give 8, 1 x 12 gives 6 (destination groups only).
//
// OSRM3 (Fig. 10) on FT(m,3): host (p0,p1,p2) is in group p2 of sub-tree p0.
// Between sub-trees it goes up to ((s0,s2),1), to top ((s2,d2),0), down to
// ((d0,s2),1) and leaf ((d0,d1),2); inside its sub-tree from ((s0,s2),1)
// straight down. So the up channel ((i0,g),1) -> ((g,e),0) carries group g of
// sub-tree i0 (m/2 sources) and the down channel ((g,e),0) -> ((i0,g),1)
// group e of sub-tree i0 (m/2 destinations): ratio m/2 (Theorem 7). In labels
// the leaf picks parent b_2 = s.a_1 and the level-2 switch b_3 = d.a_1. p(s)
// = p2 = s.a_1. With fewer than m/2 LIDs it routes by destination only, by
// D-mod-k (label_routing.h's dmodk_up_slot, ratio m-1, the routing its offset
// 0 gets with the groups): fewer source groups crowd the top channels more
// (FT(8,3) with 2 groups: 8 sources and destinations on a channel against
// 7). Not the paper's group rule with d.a_2 for the group (leaf b_2 = d.a_2,
// level 2 b_3 = d.a_1): as good on an intact FT(m,3), but with storage hosts
// on the level-2 switches it put 14 where D-mod-k puts 13.
//
// Offset 0 (route/label_routing.h): hosts that do not know their path bits
// all send there, so it routes by D-mod-k and group g takes offset g + 1:
// OSRM3 on FT(m,3) needs m/2 + 1 LIDs (FT(8,3): LMC 3; path bits 4, offset
// 0 7). Why no numbering of OSRM3's groups (4 sources of each sub-tree
// each) on 2^lmc = m/2 LIDs keeps both (FT(8,3), LMC 2): one group G0 then
// holds offset 0, and its rule is what every host on offset 0 follows. On
// offset 0 the route depends on the destination alone, so a level-2 up
// channel out of sub-tree i carries all 16 sources of i to the set D of
// destinations it is chosen for: worst case min(16, |D|). The 112
// destinations outside i share i's 16 such channels, so 7 or less needs
// every channel used, by 7 each. On path bits, a channel some other group
// G uses (one exists: G's sources of i reach outside i) then carries G0's 4
// sources of i to its 7 destinations and at least one source of G to some
// destination: a matching of 5 pairs (4 of G0's into the 6 others), not 4.
// With PathBitsUsers::kAll no offset is set apart.
#include <fmt/format.h>

#include <algorithm>

#include "schemes/label_routing.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

// ---- OSRM2 and OSRM3 ----

// What the bounds leave out on a degraded fabric.
const char* beyond_repairs(const Routing& routing) {
  return routing.rerouted > 0 ? "; entries re-routed around missing cables may exceed it" : "";
}

// OSRM2's groups on n hosts per leaf, `tops` top switches and at most
// `lids` source groups.
struct Groups {
  int zs, zd;  // how many source / destination groups
  int ns, nd;  // hosts per source / destination group
};

// The paper's groups (Fig. 9 as rebuilt above).
Groups paper_groups(int n, int tops, int lids) {
  int root = 1;
  while ((root + 1) * (root + 1) <= tops) ++root;
  const int ceil_root = root * root == tops ? root : root + 1;
  const int zs = std::min({n, ceil_root, tops / std::min(n, root), lids});
  const int zd = std::min(n, tops / zs);
  return {zs, zd, (n + zs - 1) / zs, (n + zd - 1) / zd};
}

// Lemma 9's bound of the header comment for these groups on `leaves` leaves.
int lemma9_bound(const Groups& g, int leaves) {
  return std::max(std::min(g.ns, (leaves - 1) * g.nd), std::min(g.nd, (leaves - 1) * g.ns));
}

// The paper's groups, unless fewer or more source groups (at most `lids`)
// give a strictly smaller bound.
Groups osrm2_groups(int n, int tops, int leaves, int lids) {
  Groups best = paper_groups(n, tops, lids);
  for (int zs = 1; zs <= std::min({n, tops, lids}); ++zs) {
    const int zd = std::min(n, tops / zs);
    const Groups g{zs, zd, (n + zs - 1) / zs, (n + zd - 1) / zd};
    if (lemma9_bound(g, leaves) < lemma9_bound(best, leaves)) best = g;
  }
  return best;
}

Routing route_osrm2(const RoutingInput& in, int lmc_needed) {
  const XgftShape& s = in.detection.xgft->shape;
  const int n = s.m[0], tops = up_slots(s, 1), leaves = s.m[1];
  const Groups ideal = osrm2_groups(n, tops, leaves, n);
  const Groups g = osrm2_groups(n, tops, leaves, class_lids(in));
  LabelRule rule;
  rule.classes = g.zs;
  rule.class_of = [=](const std::vector<int>& src) { return src[0] / g.ns; };
  rule.up_slot = [=](int, int c, const std::vector<int>& dst) { return c * g.zd + dst[0] / g.nd; };
  Routing routing = route_by_labels(in, rule);
  routing.lmc_needed = lmc_needed;
  if (g.zs < ideal.zs)
    routing.notes.push_back(fmt::format("OSRM2 wants {} source groups (LMC {}), LMC {} allows {}", ideal.zs,
                                        routing.lmc_needed, in.lids.lmc, g.zs));
  routing.notes.push_back(fmt::format(
      "OSRM2 on {} hosts per leaf, {} leaves and {} top switches{}: {} source groups of {}, {} destination groups of "
      "{}; each up channel carries at most {} sources or {} destinations, each down channel at most {} "
      "destinations or {} sources (Lemma 9: worst-case contention <= {}){}",
      n, leaves, tops, s.p[1] > 1 ? fmt::format(" ({} spines x {} cables)", s.w[1], s.p[1]) : "", g.zs, g.ns, g.zd,
      g.nd, g.ns, (leaves - 1) * g.nd, g.nd, (leaves - 1) * g.ns, lemma9_bound(g, leaves), beyond_repairs(routing)));
  return routing;
}

Routing route_osrm3(const RoutingInput& in, int lmc_needed) {
  const XgftShape& s = in.detection.xgft->shape;
  const int half = s.m[0];  // m/2
  const bool grouped = class_lids(in) >= half;
  const int groups = grouped ? half : 1;
  LabelRule rule;
  rule.classes = groups;
  rule.class_of = [=](const std::vector<int>& src) { return src[0] % groups; };
  const XgftLabels& labels = *in.detection.xgft;
  rule.up_slot = [=, &labels](int level, int c, const std::vector<int>& dst) -> long {
    if (!grouped) return dmodk_up_slot(labels, level, dst, 0);
    return level == 2 ? dst[0] % s.w[2] : c;
  };
  Routing routing = route_by_labels(in, rule);
  routing.lmc_needed = lmc_needed;
  if (!grouped)
    routing.notes.push_back(fmt::format(
        "OSRM3 needs {} source groups (LMC {}), LMC {} gives {}: routed by destination only (D-mod-k's "
        "oblivious ratio m-1 = {}); fewer groups would crowd the top channels more",
        half, routing.lmc_needed, in.lids.lmc, class_lids(in), 2 * half - 1));
  else
    routing.notes.push_back(
        fmt::format("OSRM3 on FT({},3): group p2 of each sub-tree; channels to and from the top carry at most {} "
                    "sources or {} destinations (Lemma 9, Theorem 7: oblivious ratio {}){}",
                    2 * half, half, half, half, beyond_repairs(routing)));
  return routing;
}

class OsrmScheme : public Scheme {
 public:
  std::string_view name() const override { return "osrm"; }

  Status applies(const Detection& detection) const override {
    if (Status s = require_tree_labels(detection, "osrm"); !s.ok()) return s;
    const XgftShape& s = detection.xgft->shape;
    const FamilyMatch* ftree = detection.find(Family::kFtree);
    const bool ft3 = s.h == 3 && ftree && ftree->param("n") == 3;
    if (s.h != 2 && !ft3)
      return Status::Error(
          "OSRM2 routes 2-level Clos networks and PGFTs and OSRM3 FT(m,3); this fabric is neither (mlid and "
          "nonblocking route any PGFT)");
    return Status::Ok();
  }

  // OSRM2: one LID per source group the LIDs would allow without limit; OSRM3: m/2 groups.
  int lmc_needed(const Detection& detection, PathBitsUsers users) const override {
    const XgftShape& s = detection.xgft->shape;
    return lmc_for_classes(s.h == 2 ? osrm2_groups(s.m[0], up_slots(s, 1), s.m[1], s.m[0]).zs : s.m[0], users);
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& in) const override {
    if (Status status = applies(in.detection); !status.ok()) return status;
    const int needed = lmc_needed(in.detection, in.path_bits_users);
    return in.detection.xgft->shape.h == 2 ? route_osrm2(in, needed) : route_osrm3(in, needed);
  }
};

}  // namespace

std::unique_ptr<Scheme> make_osrm_scheme() { return std::make_unique<OsrmScheme>(); }

}  // namespace ftclos
