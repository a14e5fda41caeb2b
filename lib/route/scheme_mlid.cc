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
// On a PGFT a level-l switch has T_l = w_{l+1} p_{l+1} up slots (parallel
// cables count, route/label_routing.h), the level-l digit r_l = min(m_l, T_l)
// values and the slot is s.a_l mod r_l + r_l (d.a_l mod q_l), q_l = floor(T_l
// / r_l): the slots the sources do not fill are used by destination. On
// FT(m,n) r_l = T_l = m/2 and q_l = 1, Lin, Chung and Huang's rule. p(s) =
// (s.a_1, .., s.a_{h-1}) in mixed radix r_l; with fewer LIDs the lowest levels
// keep their digits modulo what fits (r_l shrinks) and the others choose by
// destination only (r_l = 1 there: D-mod-k).
//
// The bound kept on two levels (n = m_1 hosts per leaf, R = m_2 leaves,
// slots T = w_2 p_2, r and q as above for the digits the LIDs allow): slot
// (a, e) is one top switch (label_routing.h), its up channel out of a leaf
// carries the sources with s.a_1 mod r = a, at most ceil(n/r), to
// destinations on the R-1 other leaves with d.a_1 mod q = e, at most
// ceil(n/q); its down channel into a leaf the other way round. By Lemma 9
// (Yuan et al.) the worst-case contention is at most
//   max(min(ceil(n/r), (R-1) ceil(n/q)), min(ceil(n/q), (R-1) ceil(n/r))),
// m/2 on FT(m,2) (r = m/2, q = 1), Table I's figure.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "route/label_routing.h"
#include "route/schemes.h"

namespace ftclos {
namespace {

// Digit l of the path bits, lowest level first: how many sources under a
// level-l switch leave by distinct up links.
std::vector<int> digit_values(const XgftShape& s) {
  std::vector<int> values(s.h, 1);
  for (int l = 1; l < s.h; ++l) values[l] = std::min(s.m[l - 1], up_slots(s, l));
  return values;
}

class MlidScheme : public Scheme {
 public:
  std::string_view name() const override { return "mlid"; }

  Status applies(const Detection& detection) const override {
    return require_tree_labels(detection, "mlid");
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
      const int r = digits.radix[l];
      return digits.digit(c, l) + r * (dst[l - 1] % (up_slots(s, l) / r));
    };
    Routing routing = route_by_labels(in, rule);
    routing.lmc_needed = lmc_needed(in.detection, in.path_bits_users);
    if (routing.lmc_needed > in.lids.lmc)
      routing.notes.push_back(fmt::format(
          "{} LIDs per CA need LMC {}, have {}: path bits keep the source digits of the lowest levels "
          "modulo what fits; the other levels choose the up link by destination only",
          full, routing.lmc_needed, in.lids.lmc));
    routing.notes.push_back(
        "the source's position under the top level picks the up link at every level (Lin, Chung and "
        "Huang); Yuan et al.'s Table I: oblivious ratio m/2 on FT(m,2), m-1 on FT(m,3)");
    if (s.h == 2)
      routing.notes.push_back(two_level_bound(s, digits.radix[1]) +
                              (routing.rerouted > 0 ? "; entries re-routed around missing cables may exceed it" : ""));
    return routing;
  }

 private:
  // The two-level bound of the header comment, for the digits in use.
  static std::string two_level_bound(const XgftShape& s, int r) {
    const int n = s.m[0], leaves = s.m[1], q = up_slots(s, 1) / r;
    const int sources = (n + r - 1) / r, destinations = (n + q - 1) / q;
    const int bound = std::max(std::min(sources, (leaves - 1) * destinations),
                               std::min(destinations, (leaves - 1) * sources));
    return fmt::format(
        "{} top slots as {} source digits x {} destination digits: each up channel carries at most {} sources, "
        "each down channel at most {} destinations (Lemma 9: worst-case contention <= {})",
        up_slots(s, 1), r, q, sources, destinations, bound);
  }
};

}  // namespace

std::unique_ptr<Scheme> make_mlid_scheme() { return std::make_unique<MlidScheme>(); }

}  // namespace ftclos
