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
    return require_single_cable_tree(detection, "nonblocking");
  }

  int lmc_needed(const Detection& detection) const override {
    return ceil_log2(full_classes(digit_values(detection.xgft->shape)));
  }

  Result<Routing> route(const RoutingInput& in) const override {
    if (Status status = applies(in.detection); !status.ok()) return status;
    const XgftShape& s = in.detection.xgft->shape;
    const DigitClasses digits(digit_values(s), in.lids.lids_per_ca());
    const long full = digits.full;
    LabelRule rule;
    rule.classes = digits.classes;
    rule.class_of = [digits](const std::vector<int>& src) { return digits.class_of(src); };
    rule.up_slot = [digits, s](int l, int c, const std::vector<int>& dst) {
      return (digits.digit(c, l) * s.m[l - 1] + dst[l - 1]) % s.w[l];
    };
    Routing routing = route_by_labels(in, rule);
    routing.lmc_needed = lmc_needed(in.detection);
    add_notes(in, full, routing);
    return routing;
  }

 private:
  static void add_notes(const RoutingInput& in, long full, Routing& routing) {
    const XgftShape& s = in.detection.xgft->shape;
    bool nonblocking = true;
    for (int l = 1; l < s.h; ++l) {
      const int n = s.m[l - 1], m = s.w[l], r = s.m[l];
      if (m >= n * n) continue;
      nonblocking = false;
      routing.notes.push_back(fmt::format(
          "Theorem 2 (Yuan): ftree(n+m, r) with r >= 2n+1 is nonblocking under single-path routing "
          "only if m >= n^2; level {} is ftree({}+{}, {}){}; pairs go through top switch (i*n+j) mod m",
          l, n, m, r,
          r >= 2 * n + 1 ? ", so no single-path routing is nonblocking on it"
                         : " (r < 2n+1: there Theorem 1 asks m >= (r-1)n/2)"));
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
