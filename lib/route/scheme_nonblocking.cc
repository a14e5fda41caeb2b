// "nonblocking": Yuan's single-path nonblocking routing for ftree(n+m, r)
// ("Nonblocking folded-Clos networks", §IV-A). Host (v,i) reaches (w,j)
// through top switch (i,j), spine i·n+j (Theorem 3): every up channel then
// carries traffic from one source and every down channel to one destination,
// which is what nonblocking means for single-path routing (Lemma 1).
// Theorem 2: with r >= 2n+1 leaves no single-path routing is nonblocking
// unless m >= n^2.
//
// The rule is applied level by level on any single-cable XGFT: a level-l
// switch sends the packet of s for d up to parent b_{l+1} = s.a_l·m_l + d.a_l.
// On the recursively built 3-level network (§IV-A after Theorem 3: every top
// switch of ftree(n+n^2, n^3+n^2) realized by ftree(n+n^2, n+n^2), which is
// XGFT(3; n,n,n+n^2; 1,n^2,n^2)) that is Theorem 3 in the outer Clos at the
// leaves and in the inner one at level 2, so Lemma 1 holds there as well.
//
// On a PGFT the top switches of level l are its up slots, T_l = w_{l+1}
// p_{l+1} (route/label_routing.h): parent j mod w_{l+1} over cable j /
// w_{l+1}, and the packet comes down over the same cable index, so each slot
// has its own up channel and its own down channel like a top switch. The
// parent is slot (s.a_l·m_l + d.a_l) mod T_l: with T_l >= m_l^2 at every
// level that is Theorem 3 again, nonblocking with parallel cables (ftree(3+9,
// r) built of 3 spines with 3 cables each, say). With fewer slots (T_l <
// m_l^2) it still routes every pair, but Theorem 2 rules out any nonblocking
// single-path routing (below m_l slots oversubscription alone does), and the
// note says so; no bound is claimed there. On three levels parallel cables below the
// top merge slots into one level-2 switch, and Theorem 3's recursion is lost
// (noted too).
//
// Source dependence: p(s) = (s.a_1, .., s.a_{h-1}) in mixed radix m_l.
#include <fmt/format.h>

#include <algorithm>

#include "route/label_routing.h"
#include "route/schemes.h"

namespace ftclos {
namespace {

// Source digits the path bits hold, lowest level first: a host's index
// under each switch.
std::vector<int> digit_values(const XgftShape& s) {
  std::vector<int> values(s.h, 1);
  for (int l = 1; l < s.h; ++l) values[l] = s.m[l - 1];
  return values;
}

class NonblockingScheme : public Scheme {
 public:
  std::string_view name() const override { return "nonblocking"; }

  Status applies(const Detection& detection) const override {
    return require_tree_labels(detection, "nonblocking");
  }

  int lmc_needed(const Detection& detection, PathBitsUsers users) const override {
    return lmc_for_classes(full_classes(digit_values(detection.xgft->shape)), users);
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& in) const override {
    if (Status status = applies(in.detection); !status.ok()) return status;
    const XgftShape& s = in.detection.xgft->shape;
    const DigitClasses digits(digit_values(s), class_lids(in));
    const long full = digits.full;
    LabelRule rule;
    rule.classes = digits.classes;
    rule.class_of = [digits](const std::vector<int>& src) { return digits.class_of(src); };
    rule.up_slot = [digits, s](int l, int c, const std::vector<int>& dst) {
      return (digits.digit(c, l) * s.m[l - 1] + dst[l - 1]) % up_slots(s, l);
    };
    Routing routing = route_by_labels(in, rule);
    routing.lmc_needed = lmc_needed(in.detection, in.path_bits_users);
    add_notes(in, full, routing);
    return routing;
  }

 private:
  static void add_notes(const RoutingInput& in, long full, Routing& routing) {
    const XgftShape& s = in.detection.xgft->shape;
    bool nonblocking = true;
    for (int l = 1; l < s.h; ++l) {
      const int n = s.m[l - 1], m = up_slots(s, l), r = s.m[l];  // m: top switches, parallel cables counted
      if (m >= n * n) continue;
      nonblocking = false;
      if (m < n) {  // fewer up slots than hosts below: a permutation of them all leaving blocks any routing
        routing.notes.push_back(fmt::format(
            "level {} has {} up slots for {} hosts below each switch: oversubscribed, no routing is nonblocking; "
            "pairs go through slot (i*n+j) mod {}",
            l, m, n, m));
        continue;
      }
      routing.notes.push_back(fmt::format(
          "Theorem 2 (Yuan): ftree(n+m, r) with r >= 2n+1 is nonblocking under single-path routing "
          "only if m >= n^2; level {} is ftree({}+{}, {}){}; pairs go through top switch (i*n+j) mod m",
          l, n, m, r,
          r >= 2 * n + 1 ? ", so no single-path routing is nonblocking on it"
                         : " (r < 2n+1: there Theorem 1 asks m >= (r-1)n/2)"));
    }
    // A lower level's parallel cables merge slots into one switch, whose up
    // channels then carry several sources of one leaf: Theorem 3's recursion
    // holds only where parallel cables reach the top level alone.
    for (int l = 1; l + 1 < s.h; ++l)
      if (s.p[l] > 1 && nonblocking) {
        nonblocking = false;
        routing.notes.push_back(fmt::format(
            "{} parallel cables into level {} merge top slots of the level below into one switch: no "
            "nonblocking guarantee (Theorem 3 needs them at the top level only)",
            s.p[l], l + 1));
      }
    if (routing.lmc_needed > in.lids.lmc) {
      nonblocking = false;
      routing.notes.push_back(fmt::format(
          "{} source classes need LMC {}, have {}: path bits keep the source digits of the lowest "
          "levels modulo what fits; the other levels choose the up link by destination only",
          full, routing.lmc_needed, in.lids.lmc));
    }
    if (nonblocking && routing.rerouted > 0)
      routing.notes.push_back(
          "Theorem 3's routing, but entries re-routed around missing cables void Lemma 1's guarantee");
    else if (nonblocking)
      routing.notes.push_back(
          "(v,i) -> (w,j) through top switch (i,j) = i*n+j at every level (Theorem 3): each channel "
          "carries one source or one destination (Lemma 1)");
  }
};

}  // namespace

std::unique_ptr<Scheme> make_nonblocking_scheme() { return std::make_unique<NonblockingScheme>(); }

}  // namespace ftclos
