// The scheme table (scheme_registry.h) and the look-ups that read it.
#include "schemes/scheme_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/closest_name.h"
#include "schemes/label_routing.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

// Below n^2 top switches nonblocking still routes, but Theorem 2 says no
// single-path routing is nonblocking there: auto prefers OSRM's ratio. On a
// 2-level PGFT the top switches are the w_2 p_2 up slots of a leaf.
bool lacks_n_squared_tops(const Detection& detection) {
  if (const FamilyMatch* clos2 = detection.find(Family::kClos2))
    return clos2->param("m") < clos2->param("n") * clos2->param("n");
  if (!detection.xgft || detection.xgft->shape.h != 2) return true;
  const XgftShape& s = detection.xgft->shape;
  return s.w[0] != 1 || s.p[0] != 1 || up_slots(s, 1) < s.m[0] * s.m[0];
}

// D-mod-k's repair of a degraded tree moves each dead port's destinations
// to the next live port, blind to what else goes there; the balanced up/down
// router weighs every port's load. Measured with stock OpenSM on ibsim
// (tests/e2e/audit_opensm_engines.sh --all): FT(8,3) with 2 or 3 lost
// switches, D-mod-k 13 vs updown 10; PartialGazelle 10 vs 8. Where
// D-mod-k's labels still spread better, it wins: on a degraded tree D-mod-k
// challenges updown's tables and the lower worst case is kept (a 960-HCA
// rail-optimized pod with 8 missing cables: updown 16, D-mod-k 18).
bool degraded(const Detection& detection) { return detection.degraded(); }

// Where some pair of leaves shares no ancestor updown leaves their CAs
// apart (kNoPath): up*/down* routes every pair there.
bool leaves_lack_ancestors(const Detection& detection) { return !detection.updown_routable; }

// auto first, then the order people read them in. auto's preference:
// nonblocking (contention-free for every permutation) beats OSRM's optimal
// oblivious ratio, which beats destination-based D-mod-k; MiKANT and generic
// folded Clos fabrics have one scheme each.
constexpr SchemeEntry kSchemes[] = {
    {.name = "auto",
     .fabrics = "any",
     .lmc = "that of its choice",
     .path_bits = "that of its choice",
     .guarantee = "the best of the other schemes the fabric and LMC allow, and says why",
     .make = make_auto_scheme},
    {.name = "dmodk",
     .fabrics = "PGFT, FT, k-ary, clos2",
     .lmc = "0 (offsets spread over up ports)",
     .path_bits = "0",
     .guarantee = "D-mod-k: link-disjoint downward paths per destination",
     .auto_preference = 4,
     .auto_skips = degraded,
     .auto_tries_where = "the fabric is intact",
     .auto_challenges = {"updown"},
     .make = make_dmodk_scheme},
    {.name = "nonblocking",
     .fabrics = "ftree(n+m, r) with m >= n^2 (names Theorem 2 otherwise), recursive 3-level, "
                "PGFT (parallel cables: more top switches)",
     .lmc = "log2 of (prod n + 1): offset 0 is D-mod-k's (prod n with --pathbits-users all)",
     .path_bits = "local index on the leaf, + 1",
     .guarantee = "nonblocking for every permutation (Yuan, Theorem 3) where each level has n^2 up slots (w p) "
                  "and only the top parallel cables",
     .auto_preference = 2,
     .auto_skips = lacks_n_squared_tops,
     .auto_tries_where = "m >= n^2 (2-level PGFT: w2 p2 >= n^2)",
     .make = make_nonblocking_scheme},
    {.name = "osrm",
     .fabrics = "FT(m,2), 2-level Clos and PGFT (ratio sqrt(m/2) on FT(m,2)), FT(m,3) (ratio m/2)",
     .lmc = "ceil(log2 (groups + 1)): offset 0 is D-mod-k's (groups with --pathbits-users all)",
     .path_bits = "source group + 1",
     .guarantee = "optimal oblivious single-path ratio (Yuan et al., OSRM2/OSRM3); 2-level PGFT (w2 p2 top "
                  "switches, R leaves): contention <= max(min(N_s, (R-1) N_d), min(N_d, (R-1) N_s)) for its groups",
     .auto_preference = 3,
     .make = make_osrm_scheme},
    {.name = "mlid",
     .fabrics = "FT(m,n), PGFT (parallel cables: more up slots)",
     .lmc = "log2 of (prod min(m_l, w_{l+1} p_{l+1}) + 1): (m/2)^(n-1) + 1 on FT(m,n); offset 0 is D-mod-k's "
            "(no + 1 with --pathbits-users all)",
     .path_bits = "position under the top, + 1",
     .guarantee = "Lin/Chung/Huang baseline: m/2 on FT(m,2), m-1 on FT(m,3); 2-level PGFT: contention <= "
                  "max(min(ceil(n/r), (R-1) ceil(n/q)), min(ceil(n/q), (R-1) ceil(n/r))), r = min(n, w2 p2, "
                  "2^lmc), q = w2 p2 / r",
     .make = make_mlid_scheme},
    {.name = "multipath",
     .fabrics = "any folded Clos",
     .lmc = "ceil(log2 #roots)",
     .path_bits = "0; the consumer spreads over all offsets",
     .guarantee = "OMRMN: ratio 1 with all offsets",
     .make = make_multipath_scheme},
    {.name = "mikant",
     .fabrics = "MiKANT(k,n); SL = destination group (VL 0/1), deadlock-free",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "MiKANT's own per-hop routing",
     .auto_preference = 1,
     .make = make_mikant_scheme},
    {.name = "updown",
     .fabrics = "RFC, any folded Clos, degraded",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "up/down balanced by destination (as OpenSM ftree), deadlock-free on any folded Clos",
     .auto_preference = 5,
     .auto_skips = leaves_lack_ancestors,
     .auto_tries_where = "every pair of leaves shares an ancestor",
     .make = make_updown_scheme},
    {.name = "updown-star",
     .fabrics = "any connected fabric (ring, torus, hypercube, dragonfly, cables inside a level, chassis of chassis)",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "up*/down* (Autonet) from BFS ranks: every pair reachable, deadlock-free on one VL",
     .auto_preference = 6,
     .make = make_updown_star_scheme},
    {.name = "layered",
     .fabrics = "any connected fabric; SL = VL layer per destination (as many as the ports offer: --vls, VLCap)",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "shortest paths balanced by load, each VL layer's channel dependency graph acyclic (DF-SSSP): "
                  "deadlock-free; a destination whose trees fit no layer (fewest down-up turns tried too) takes an "
                  "up*/down* tree on SL 0",
     .auto_challenges = {"updown-star", "mikant"},
     .make = make_layered_scheme},
    {.name = "updown-layers",
     .fabrics = "any connected fabric whose leaves do not all share ancestors; SL = up*/down* order per "
                "destination (as many orders as the ports offer VLs)",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "up*/down* from a further root set on each VL (the floor's on VL 0), each destination in the "
                  "order of its shortest tree: deadlock-free",
     .auto_challenges = {"updown-star"},
     .make = make_updown_layers_scheme},
    {.name = "torus",
     .fabrics = "torus, mesh (1 to 3 dimensions, every grid cable present); SL = 1 + the destination's half of each "
                "ring of 5 or more (2^rings VLs from VL 1, 4x4 tori and hypercubes 1; VL 0 left to multicast)",
     .lmc = "0",
     .path_bits = "0",
     .guarantee = "dimension-order routing, the shorter way round (ties by the destination's parity), a dateline "
                  "VL per ring half: deadlock-free",
     .auto_challenges = {"updown-star"},
     .make = make_torus_scheme},
};

// 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.
std::string ordinal(int n) {
  const int last = n % 10;
  const bool teen = n % 100 >= 11 && n % 100 <= 13;
  const char* suffix = teen || last == 0 || last > 3 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : "rd";
  return fmt::format("{}{}", n, suffix);
}

}  // namespace

std::span<const SchemeEntry> scheme_table() { return kSchemes; }

const SchemeEntry* find_scheme(std::string_view name) {
  for (const SchemeEntry& entry : kSchemes)
    if (entry.name == name) return &entry;
  return nullptr;
}

std::string auto_order(const SchemeEntry& entry) {
  if (entry.make == make_auto_scheme) return "-";
  std::string challenged;
  for (std::string_view scheme : entry.auto_challenges)
    if (!scheme.empty()) challenged += (challenged.empty() ? "" : " or ") + std::string(scheme);
  const std::string beside =
      challenged.empty() ? "" : fmt::format("beside {}: kept where its worst case is lower", challenged);
  if (entry.auto_preference <= 0) return beside.empty() ? "no" : beside;
  std::string order = ordinal(entry.auto_preference);
  if (!entry.auto_tries_where.empty()) order += fmt::format(", where {}", entry.auto_tries_where);
  return beside.empty() ? order : order + "; elsewhere " + beside;
}

std::string scheme_table_markdown() {
  std::string out =
      "| scheme | fabrics | LMC it needs | p(s) | guarantee | `auto` tries it |\n|---|---|---|---|---|---|\n";
  for (const SchemeEntry& entry : kSchemes)
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", entry.name, entry.fabrics, entry.lmc, entry.path_bits,
                       entry.guarantee, auto_order(entry));
  return out;
}

Result<std::unique_ptr<Scheme>> make_scheme(std::string_view name) {
  if (const SchemeEntry* entry = find_scheme(name)) return entry->make();
  std::string message = fmt::format("unknown scheme \"{}\"", name);
  const std::string_view closest = closest_name(name, scheme_names());
  message += closest.empty() ? "." : fmt::format("; did you mean \"{}\"?", closest);
  return Status::Error(fmt::format("{} Known schemes: {}", message, fmt::join(scheme_names(), ", ")));
}

std::vector<std::string_view> scheme_names() {
  std::vector<std::string_view> names;
  for (const SchemeEntry& entry : kSchemes) names.push_back(entry.name);
  return names;
}

}  // namespace ftclos
