// "mlid": Lin, Chung and Huang's multiple-LID routing ("A multiple LID
// routing scheme for fat-tree-based InfiniBand networks", IPDPS'04), the
// baseline of Yuan et al.'s Table I. On FT(m,n) every CA owns (m/2)^(n-1)
// LIDs, one per up path out of its top-level sub-tree; a source sends on the
// LID of its own position in that sub-tree, and a level-l switch sends the
// packet up to parent b_{l+1} = s.a_l, so the sources under one switch leave
// by distinct up links. Down channels still carry many sources to many
// destinations: Table I gives the oblivious ratio m/2 on FT(m,2) and m-1 on
// FT(m,3).
//
// On a PGFT the level-l digit has r_l = min(m_l, w_{l+1}) values and the
// parent is (s.a_l mod r_l + r_l * d.a_l) mod w_{l+1}: parents the sources
// do not fill are used by destination. p(s) = (s.a_1, .., s.a_{h-1}) in mixed
// radix r_l; with fewer LIDs the lowest levels keep their digits and the
// others choose by destination only (r_l = 1 there: D-mod-k).
#include <fmt/format.h>

#include <algorithm>

#include "route/label_routing.h"
#include "route/schemes.h"

namespace ftclos {
namespace {

// Digit l of the path bits, lowest level first: how many sources under a
// level-l switch leave by distinct up links.
std::vector<int> digit_values(const XgftShape& s) {
  std::vector<int> values(s.h, 1);
  for (int l = 1; l < s.h; ++l) values[l] = std::min(s.m[l - 1], s.w[l]);
  return values;
}

class MlidScheme : public Scheme {
 public:
  std::string_view name() const override { return "mlid"; }

  Status applies(const Detection& detection) const override {
    return require_single_cable_tree(detection, "mlid");
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
      return (digits.digit(c, l) + digits.radix[l] * dst[l - 1]) % s.w[l];
    };
    Routing routing = route_by_labels(in, rule);
    routing.lmc_needed = lmc_needed(in.detection);
    if (routing.lmc_needed > in.lids.lmc)
      routing.notes.push_back(fmt::format(
          "{} LIDs per CA need LMC {}, have {}: path bits keep the source digits of the lowest levels "
          "modulo what fits; the other levels choose the up link by destination only",
          full, routing.lmc_needed, in.lids.lmc));
    routing.notes.push_back(
        "the source's position under the top level picks the up link at every level (Lin, Chung and "
        "Huang); Yuan et al.'s Table I: oblivious ratio m/2 on FT(m,2), m-1 on FT(m,3)");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_mlid_scheme() { return std::make_unique<MlidScheme>(); }

}  // namespace ftclos
