// The experiments of experiments.h: each builds its fabrics, routes them and
// measures, then sets the paper's numbers beside ours.
#include "experiments.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <numeric>
#include <random>

#include "audit.h"
#include "common_ancestor.h"
#include "detect.h"
#include "drb_sim.h"
#include "generate.h"
#include "generator_support.h"
#include "pattern_load.h"
#include "patterns.h"

namespace ftclos {
namespace {

std::string fixed(double value, int digits = 2) { return fmt::format("{:.{}f}", value, digits); }
std::string relative(double ours, double paper) { return fmt::format("{:+.1f}%", 100 * (ours - paper) / paper); }
std::string range(const Spread& s) { return fmt::format("{:.2f} ({:.2f}-{:.2f})", s.mean, s.min, s.max); }
std::string yes_no(bool ok) { return ok ? "yes" : "NO"; }

// Counts a check and returns its verdict for the table.
std::string check(ExperimentReport& report, bool ok) {
  ++report.checks;
  report.failed += !ok;
  return yes_no(ok);
}

// ---- Yuan et al. §VI: FT(m,n) routed by a scheme ----

struct Ft {
  std::string name;
  Fabric fabric;
  Detection detection;
};

Result<Ft> make_ft(int m, int n) {
  Result<Fabric> fabric = generate_ftree(m, n);
  if (!fabric.ok()) return fabric.status();
  Ft ft{fmt::format("FT({},{})", m, n), std::move(*fabric), {}};
  ft.detection = detect(ft.fabric);
  return ft;
}

// The paper's name for our scheme on this fabric.
std::string paper_name(const std::string& scheme, int levels) {
  if (scheme == "osrm") return levels == 2 ? "OSRM2" : "OSRM3";
  return scheme == "mlid" ? "MLID" : scheme;
}

LoadPlan load_plan(const Ft& ft, const SchemeTables& tables) {
  return LoadPlan({ft.fabric, tables.lids, tables.routing.lfts, tables.offsets});
}

// Mean ratio of `pattern` over the paper's 32 instances.
Result<PatternStats> pattern_stats(const Ft& ft, LoadPlan& plan, const std::string& pattern, uint64_t seed) {
  Result<PatternSpec> spec = parse_pattern(pattern);
  if (!spec.ok()) return spec.status();
  return evaluate_pattern(plan, ft.detection.levels, optu_basis(ft.detection), *spec, {32, seed});
}

Status oblivious_table1(ExperimentReport& report, const ExperimentOptions&) {
  ExperimentTable table{"Yuan et al. Table I: oblivious performance ratio (worst case over all traffic)",
                        {"fabric", "scheme", "LMC", "ours", "paper", "formula", "diff", "match"}, {}, {}};
  struct Case {
    int m, n;
  };
  for (const Case c : {Case{8, 2}, Case{32, 2}, Case{8, 3}, Case{16, 3}}) {
    Result<Ft> ft = make_ft(c.m, c.n);
    if (!ft.ok()) return ft.status();
    for (const std::string scheme : {"osrm", "mlid"}) {
      Result<SchemeTables> tables = route_scheme(ft->fabric, ft->detection, scheme, -1);
      if (!tables.ok()) return tables.status();
      const AuditInput audit{ft->fabric, ft->detection.levels, tables->lids, tables->routing.lfts, tables->offsets,
                             {}, {}};
      const Contention contention = worst_case_contention(audit);
      const double ours = contention.worst_case;
      const bool osrm = scheme == "osrm";
      const double paper = c.n == 2 ? (osrm ? std::sqrt(c.m / 2.0) : c.m / 2.0) : (osrm ? c.m / 2.0 : c.m - 1.0);
      const std::string formula = c.n == 2 ? (osrm ? "sqrt(m/2)" : "m/2") : (osrm ? "m/2" : "m-1");
      table.rows.push_back({ft->name, paper_name(scheme, c.n), std::to_string(tables->lids.lmc),
                            fmt::format("{:g}{}", ours, contention.exact ? "" : " (bound)"), fixed(paper, 0), formula,
                            fmt::format("{:+g}", ours - paper), check(report, ours == paper)});
      for (const std::string& note : tables->notes) table.notes.push_back(ft->name + " " + scheme + ": " + note);
    }
  }
  table.notes.push_back(
      "ours: worst_case_contention (audit.h), the largest bipartite matching of the SD pairs on any channel: the "
      "load a permutation (baseload 1 = OPTU, Corollary 1) can put there, so the worst-case ratio.");
  table.notes.push_back(
      "MLID's m-1 on FT(16,3) needs (m/2)^2 = 64 LIDs per CA: 65,536 CA LIDs, past InfiniBand's 49,151 unicast "
      "LIDs. At LMC 5 half of the level-2 source digit is lost and those up links are chosen by destination.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

// Tables II and III of Yuan et al. Alternative rows set our torus reading of
// a mesh beside the paper's mesh figure; their verdicts are not counted.
struct RegularRow {
  const char* pattern;
  const char* label;
  double mlid, osrm;
  bool alternative = false;
};

std::vector<RegularRow> with_torus_rows(std::vector<RegularRow> rows) {
  for (size_t i = 0, n = rows.size(); i < n; ++i) {
    const std::string pattern = rows[i].pattern;
    if (pattern == "mesh2d") rows.push_back({"torus2d", "2D Torus (alt.)", rows[i].mlid, rows[i].osrm, true});
    if (pattern == "mesh3d") rows.push_back({"torus3d", "3D Torus (alt.)", rows[i].mlid, rows[i].osrm, true});
  }
  return rows;
}

Status regular_table(ExperimentReport& report, int m, int n, const std::vector<RegularRow>& paper,
                     const std::string& title, uint64_t seed) {
  Result<Ft> ft = make_ft(m, n);
  if (!ft.ok()) return ft.status();
  Result<SchemeTables> mlid = route_scheme(ft->fabric, ft->detection, "mlid", -1);
  if (!mlid.ok()) return mlid.status();
  Result<SchemeTables> osrm = route_scheme(ft->fabric, ft->detection, "osrm", -1);
  if (!osrm.ok()) return osrm.status();
  const std::string ours_osrm = paper_name("osrm", n);
  ExperimentTable table{title,
                        {"pattern", "MLID ours", "paper", "diff", "within 5%", ours_osrm + " ours", "paper", "diff",
                         "within 5%"},
                        {},
                        {}};
  LoadPlan mlid_plan = load_plan(*ft, *mlid), osrm_plan = load_plan(*ft, *osrm);
  for (const RegularRow& row : with_torus_rows(paper)) {
    Result<PatternStats> a = pattern_stats(*ft, mlid_plan, row.pattern, seed);
    if (!a.ok()) return a.status();
    Result<PatternStats> b = pattern_stats(*ft, osrm_plan, row.pattern, seed);
    if (!b.ok()) return b.status();
    const double x = a->ratio.mean, y = b->ratio.mean;
    auto verdict = [&](double ours, double paper) {
      const bool ok = std::abs(ours - paper) <= 0.05 * paper;
      return row.alternative ? "(" + yes_no(ok) + ")" : check(report, ok);
    };
    table.rows.push_back({row.label, range(a->ratio), fixed(row.mlid), relative(x, row.mlid), verdict(x, row.mlid),
                          range(b->ratio), fixed(row.osrm), relative(y, row.osrm), verdict(y, row.osrm)});
  }
  table.notes.push_back("Meshes: neighbours on the most even grid (512 = 16x32 and 8x8x8, 128 = 8x16 and 4x4x8, "
                        "1024 = 32x32 and 8x8x16), no wrap-around. (alt.) rows: the same with wrap-around links, "
                        "compared with the paper's mesh figure; not counted.");
  for (const std::string& note : mlid->notes) table.notes.push_back("mlid: " + note);
  table.notes.push_back(fmt::format("MLID at LMC {}, {} at LMC {}; 32 instances per pattern, random placement "
                                    "(seed {}); ratio = MLOAD / baseload (Corollary 1), mean (min-max).",
                                    mlid->lids.lmc, ours_osrm, osrm->lids.lmc, seed));
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

Status oblivious_table2(ExperimentReport& report, const ExperimentOptions& options) {
  return regular_table(report, 32, 2,
                       {{"ring", "Ring", 3.47, 2.97},
                        {"mesh2d", "2D Mesh", 1.88, 1.74},
                        {"mesh3d", "3D Mesh", 2.34, 2.14},
                        {"hypercube", "Hypercube", 2.03, 1.90},
                        {"binary-tree", "Binary Tree", 2.37, 2.20}},
                       "Yuan et al. Table II: average performance ratio, regular traffic on FT(32,2)", options.seed);
}

Status oblivious_table3(ExperimentReport& report, const ExperimentOptions& options) {
  if (Status status = regular_table(report, 8, 3,
                                    {{"ring", "Ring", 2.84, 2.80},
                                     {"mesh2d", "2D Mesh", 1.64, 1.63},
                                     {"mesh3d", "3D Mesh", 2.04, 1.99},
                                     {"hypercube", "Hypercube", 1.90, 1.90},
                                     {"binary-tree", "Binary Tree", 2.07, 2.03}},
                                    "Yuan et al. Table III: average performance ratio, regular traffic on FT(8,3)",
                                    options.seed);
      !status.ok())
    return status;
  return regular_table(report, 16, 3,
                       {{"ring", "Ring", 3.78, 3.78},
                        {"mesh2d", "2D Mesh", 2.83, 2.83},
                        {"mesh3d", "3D Mesh", 2.48, 2.43},
                        {"hypercube", "Hypercube", 2.11, 2.10},
                        {"binary-tree", "Binary Tree", 2.69, 2.67}},
                       "Yuan et al. Table III: average performance ratio, regular traffic on FT(16,3)", options.seed);
}

// One row per size: MLID and OSRM mean ratios of `pattern_of(size)`.
struct SizeSweep {
  std::vector<int> sizes;
  std::vector<Spread> mlid, osrm;
};

Result<SizeSweep> sweep(const Ft& ft, const std::vector<int>& sizes, const std::function<std::string(int)>& pattern_of,
                        uint64_t seed, ExperimentTable& table) {
  Result<SchemeTables> mlid = route_scheme(ft.fabric, ft.detection, "mlid", -1);
  if (!mlid.ok()) return mlid.status();
  Result<SchemeTables> osrm = route_scheme(ft.fabric, ft.detection, "osrm", -1);
  if (!osrm.ok()) return osrm.status();
  for (const std::string& note : mlid->notes) table.notes.push_back(ft.name + " mlid: " + note);
  SizeSweep out{sizes, {}, {}};
  LoadPlan mlid_plan = load_plan(ft, *mlid), osrm_plan = load_plan(ft, *osrm);
  for (int size : sizes) {
    Result<PatternStats> a = pattern_stats(ft, mlid_plan, pattern_of(size), seed);
    if (!a.ok()) return a.status();
    Result<PatternStats> b = pattern_stats(ft, osrm_plan, pattern_of(size), seed);
    if (!b.ok()) return b.status();
    out.mlid.push_back(a->ratio);
    out.osrm.push_back(b->ratio);
    table.rows.push_back({ft.name, std::to_string(size), range(a->ratio), range(b->ratio),
                          relative(b->ratio.mean, a->ratio.mean)});
  }
  return out;
}

Status clustered(ExperimentReport& report, const ExperimentOptions& options) {
  ExperimentTable table{"Yuan et al. Figs. 12-13: clustered traffic (all-to-all in random groups)",
                        {"fabric", "group size", "MLID ratio (min-max)", "OSRM ratio (min-max)", "OSRM vs MLID"},
                        {},
                        {}};
  auto pattern = [](int size) { return fmt::format("clustered:{}", size); };
  Result<Ft> ft32 = make_ft(32, 2);
  if (!ft32.ok()) return ft32.status();
  Result<SizeSweep> a = sweep(*ft32, {2, 4, 8, 16, 32, 64, 128}, pattern, options.seed, table);
  if (!a.ok()) return a.status();
  Result<Ft> ft8 = make_ft(8, 3);
  if (!ft8.ok()) return ft8.status();
  Result<SizeSweep> b = sweep(*ft8, {2, 4, 8, 16, 32, 64}, pattern, options.seed, table);
  if (!b.ok()) return b.status();

  const double mlid2 = a->mlid.front().mean;
  table.notes.push_back(fmt::format("paper: on FT(32,2) with groups of 2 the MLID/WSR average is larger than 4; "
                                    "ours {:.2f} -> {}",
                                    mlid2, check(report, mlid2 > 4)));
  double osrm_max = 0;
  for (const Spread& s : a->osrm) osrm_max = std::max(osrm_max, s.max);
  table.notes.push_back(fmt::format("paper: OSRM2 guarantees a ratio of at most sqrt(32/2) = 4 on any traffic; "
                                    "our largest instance {:.2f} -> {}",
                                    osrm_max, check(report, osrm_max <= 4 + 1e-9)));
  int better = 0;
  for (size_t i = 0; i < a->sizes.size(); ++i) better += a->osrm[i].mean < a->mlid[i].mean;
  table.notes.push_back(fmt::format("paper: OSRM2 performs noticeably better than MLID/WSR on FT(32,2); ours better "
                                    "at {} of {} sizes -> {}",
                                    better, a->sizes.size(), check(report, better == static_cast<int>(a->sizes.size()))));
  double gain32 = 0, gain8 = 0;
  for (size_t i = 0; i < a->sizes.size(); ++i) gain32 += 1 - a->osrm[i].mean / a->mlid[i].mean;
  for (size_t i = 0; i < b->sizes.size(); ++i) gain8 += 1 - b->osrm[i].mean / b->mlid[i].mean;
  gain32 /= static_cast<double>(a->sizes.size());
  gain8 /= static_cast<double>(b->sizes.size());
  table.notes.push_back(fmt::format("paper: the improvement is noticeable on FT(32,2), slight on FT(8,3); ours "
                                    "{:.1f}% vs {:.1f}% on average -> {}",
                                    100 * gain32, 100 * gain8, check(report, gain32 > gain8 && gain8 >= 0)));
  table.notes.push_back("The figures' curves are not in our copy of the text: only these statements can be compared.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

Status hotspot(ExperimentReport& report, const ExperimentOptions& options) {
  ExperimentTable table{"Yuan et al. Figs. 14-15: four hot spots of growing size",
                        {"fabric", "hot-spot size", "MLID ratio (min-max)", "OSRM ratio (min-max)", "OSRM vs MLID"},
                        {},
                        {}};
  auto pattern = [](int size) { return fmt::format("hot-spot:4,{}", size); };
  const std::vector<int> sizes{2, 4, 8, 16, 32, 64, 128};
  Result<Ft> ft32 = make_ft(32, 2);
  if (!ft32.ok()) return ft32.status();
  Result<SizeSweep> a = sweep(*ft32, sizes, pattern, options.seed, table);
  if (!a.ok()) return a.status();
  Result<Ft> ft16 = make_ft(16, 3);
  if (!ft16.ok()) return ft16.status();
  Result<SizeSweep> b = sweep(*ft16, sizes, pattern, options.seed, table);
  if (!b.ok()) return b.status();

  double worse = 0, worst_mean = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    worse += a->osrm[i].mean / a->mlid[i].mean - 1;
    worst_mean = std::max({worst_mean, a->osrm[i].mean, a->mlid[i].mean, b->osrm[i].mean, b->mlid[i].mean});
  }
  worse /= static_cast<double>(sizes.size());
  table.notes.push_back(fmt::format("paper: OSRM2 is about 3% worse than WSR/MLID on FT(32,2) on average; ours "
                                    "{:+.1f}% (difference {:+.1f} points) -> worse: {}",
                                    100 * worse, 100 * worse - 3, check(report, worse > 0)));
  table.notes.push_back(fmt::format("paper: the ratios of all schemes are close to 1; our largest mean is {:.2f}",
                                    worst_mean));
  table.notes.push_back("Hot-spot sizes are ours (the figures' axes are not in our copy of the text).");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

// ---- DRB ----

Status drb_fig4(ExperimentReport& report, const ExperimentOptions& options) {
  for (const auto& [ports, levels] : {std::pair{8, 3}, std::pair{16, 3}}) {
    Result<ExperimentTable> table =
        drb_table(ports, levels, {1, 2, 3, 4, 5, 6, 7, 8}, 200, -1, options.seed, &report.checks, &report.failed);
    if (!table.ok()) return table.status();
    report.tables.push_back(std::move(*table));
  }
  return Status::Ok();
}

// ---- MiKANT ----

Status mikant_table1(ExperimentReport& report, const ExperimentOptions&) {
  ExperimentTable table{"Li and Chu Table I: MiKANT(k, n) measured on generated fabrics vs the formulas",
                        {"fabric", "property", "ours", "paper", "formula", "diff", "exact"},
                        {},
                        {}};
  for (const auto& [k, n] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 5}}) {
    Result<TopologyCounts> ours = measure_mikant(k, n);
    if (!ours.ok()) return ours.status();
    const long kn = std::lround(std::pow(k, n));
    const double nodes = 2.0 * kn;
    const double avg = ours->distance_sum / (nodes * nodes);
    const double paper_avg = 2.0 * n - 1.0 / (k - 1) + 1.0 / ((k - 1) * static_cast<double>(kn)) - 0.5;
    const std::string name = fmt::format("MiKANT({},{})", k, n);
    auto row = [&](const char* property, long x, long y, const char* formula) {
      table.rows.push_back({name, property, std::to_string(x), std::to_string(y), formula, std::to_string(x - y),
                            check(report, x == y)});
    };
    row("nodes", ours->nodes, 2 * kn, "2k^n");
    row("switches", ours->switches, (2L * n - 2) * kn / k, "(2n-2)k^(n-1)");
    row("links", ours->links, (2L * n - 1) * kn, "(2n-1)k^n");
    row("diameter", ours->diameter, 2L * n, "2n");
    std::string why;
    table.rows.push_back({name, "avg distance", fixed(avg, 6), fixed(paper_avg, 6), "2n-1/(k-1)+1/((k-1)k^n)-1/2",
                          fmt::format("{:.1e}", avg - paper_avg),
                          check(report, matches_mikant_formulas(*ours, k, n, &why))});
    if (!why.empty()) table.notes.push_back(name + ": " + why);
  }
  table.notes.push_back("Links include the CA links and distances count them (as Table I does); the average "
                        "distance is over ordered node pairs, self included, compared as an exact fraction.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

// ---- Random folded Clos ----

// Theorem 4.2's x for an RFC: (R/2)^(2(l-1)) = N_l (ln C(N_1, 2) + x), N_l = N_1/2 roots.
double threshold_x(int radix, int leaves, int levels) {
  const double half = radix / 2.0;
  const double roots = leaves / 2.0;
  return std::pow(half, 2 * (levels - 1)) / roots - std::log(leaves * (leaves - 1) / 2.0);
}

Status rfc_ancestors(ExperimentReport& report, const ExperimentOptions& options) {
  constexpr int kSeeds = 200;
  ExperimentTable table{"Camarero et al. Theorem 4.2: P(every leaf pair has a common ancestor)",
                        {"R", "levels", "N1", "hosts", "x", "paper e^(-e^(-x))", "ours", "diff", "within 3 se"},
                        {},
                        {}};
  struct Case {
    int radix, leaves;
  };
  const int levels = 3;
  for (const Case c : {Case{8, 40}, Case{8, 48}, Case{8, 56}, Case{8, 64}, Case{8, 72}, Case{8, 80}, Case{10, 110},
                       Case{10, 130}, Case{10, 150}, Case{10, 170}}) {
    int good = 0;
    for (int s = 0; s < kSeeds; ++s) {
      Result<Fabric> fabric = generate_rfc(c.radix, c.leaves, levels, options.seed * 1000003 + s);
      if (!fabric.ok()) return fabric.status();
      good += every_leaf_pair_has_common_ancestor(*fabric);
    }
    const double x = threshold_x(c.radix, c.leaves, levels);
    const double paper = std::exp(-std::exp(-x));
    const double ours = static_cast<double>(good) / kSeeds;
    // The binomial standard error of kSeeds draws, at least one draw's worth.
    const double se = std::max(std::sqrt(paper * (1 - paper) / kSeeds), 1.0 / kSeeds);
    table.rows.push_back({std::to_string(c.radix), std::to_string(levels), std::to_string(c.leaves),
                          std::to_string(c.leaves * c.radix / 2), fixed(x), fixed(paper, 3), fixed(ours, 3),
                          fmt::format("{:+.3f}", ours - paper), check(report, std::abs(ours - paper) <= 3 * se)});
  }
  table.notes.push_back(fmt::format(
      "x from (R/2)^(2(l-1)) = N_l (ln C(N1,2) + x) with N_l = N1/2 roots; ours: fraction of {} seeded RFCs "
      "(generate_rfc) where every leaf pair has a common ancestor; se = sqrt(p(1-p)/{}). The theorem is a limit; "
      "these sizes are small.",
      kSeeds, kSeeds));
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

std::vector<Cable> switch_cables(const Fabric& fabric) {
  std::vector<Cable> cables;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef peer = fabric.node(x).ports[p].peer;
      if (peer.valid() && fabric.node(x).is_switch() && fabric.node(peer.node).is_switch() && PortRef{x, p} < peer)
        cables.push_back({{x, p}, peer});
    }
  return cables;
}

// How many of the cables, removed in `order`, disconnect the leaves (switches
// with CAs) from each other: the last cable added back, in reverse, that
// joins them all.
int cables_to_disconnect(const Fabric& fabric, const std::vector<Cable>& order) {
  std::vector<int> parent(fabric.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<int> leaves;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && hosts_on(fabric, x) > 0) leaves.push_back(x);
  int components = static_cast<int>(leaves.size());
  std::vector<int> leaves_in(fabric.size(), 0);
  for (int leaf : leaves) leaves_in[leaf] = 1;
  for (int i = static_cast<int>(order.size()) - 1; i >= 0; --i) {
    const int a = root(order[i].a.node), b = root(order[i].b.node);
    if (a == b) continue;
    if (leaves_in[a] > 0 && leaves_in[b] > 0) --components;
    parent[a] = b;
    leaves_in[b] += leaves_in[a];
    if (components == 1) return i + 1;  // removing cables 0..i disconnects
  }
  return 0;
}

// The fewest cables of `order` whose removal leaves a leaf pair without a
// common ancestor, by bisection (removing cables only loses ancestors).
int cables_to_lose_updown(const Fabric& fabric, const std::vector<Cable>& order) {
  auto lost_after = [&](int count) {
    Fabric copy = fabric;
    for (int i = 0; i < count; ++i) copy.disconnect(order[i].a);
    return !every_leaf_pair_has_common_ancestor(copy);
  };
  int low = 0, high = static_cast<int>(order.size());
  while (low < high) {
    const int mid = (low + high) / 2;
    if (lost_after(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

Status rfc_disconnect(ExperimentReport& report, const ExperimentOptions& options) {
  constexpr int kTrials = 100;  // as in §7
  ExperimentTable table{"Camarero et al. Table 3: switch links removed (%) to disconnect a diameter-4 network",
                        {"network", "hosts", "links", "ours", "paper", "diff", "within 5%", "ours: up/down lost"},
                        {},
                        {}};
  struct Net {
    std::string name;
    int hosts_label;
    double paper;
    std::function<Result<Fabric>(uint64_t)> make;
  };
  const std::vector<Net> nets = {
      {"RFC R=10 N1=102", 512, 35.5, [](uint64_t s) { return generate_rfc(10, 102, 3, s); }},
      {"RFC R=12 N1=170", 1024, 38.2, [](uint64_t s) { return generate_rfc(12, 170, 3, s); }},
      {"RFC R=14 N1=292", 2048, 40.7, [](uint64_t s) { return generate_rfc(14, 292, 3, s); }},
      {"CFT FT(16,3)", 1024, 51.3, [](uint64_t) { return generate_ftree(16, 3); }},
      {"CFT FT(20,3)", 2048, 56.3, [](uint64_t) { return generate_ftree(20, 3); }},
  };
  std::mt19937_64 rng(options.seed);
  for (const Net& net : nets) {
    std::vector<double> disconnect, updown;
    int hosts = 0, links = 0;
    for (int t = 0; t < kTrials; ++t) {
      Result<Fabric> fabric = net.make(options.seed * 1000003 + t);
      if (!fabric.ok()) return fabric.status();
      std::vector<Cable> order = switch_cables(*fabric);
      shuffle_in_place(order.begin(), order.end(), rng);
      links = static_cast<int>(order.size());
      hosts = fabric->count(NodeType::kCa);
      disconnect.push_back(100.0 * cables_to_disconnect(*fabric, order) / links);
      updown.push_back(100.0 * cables_to_lose_updown(*fabric, order) / links);
    }
    const Spread a = spread_of(disconnect), b = spread_of(updown);
    table.rows.push_back({net.name, fmt::format("{} (~{})", hosts, net.hosts_label), std::to_string(links),
                          fmt::format("{:.1f}% (sd {:.1f})", a.mean, a.stddev), fmt::format("{:.1f}%", net.paper),
                          fmt::format("{:+.1f} points", a.mean - net.paper),
                          check(report, std::abs(a.mean - net.paper) <= 0.05 * net.paper),
                          fmt::format("{:.1f}% (sd {:.1f})", b.mean, b.stddev)});
  }
  table.notes.push_back(
      "Switch-to-switch links removed one by one in random order (100 trials, a new RFC each); disconnected = "
      "two leaves (compute nodes) no longer connected; up/down lost = a leaf pair without common ancestor "
      "(Theorem 4.2's condition, Fig. 11's measure). RFC radix: the smallest even R over the Theorem 4.2 "
      "threshold for ~T hosts (the text gives R=12 at 1024 and R=14 at 2048); CFT radix as the text gives it.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

struct Entry {
  ExperimentInfo info;
  Status (*run)(ExperimentReport&, const ExperimentOptions&);
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"oblivious-table1", "worst-case ratios of OSRM2/OSRM3/MLID (Yuan et al. Table I)"}, oblivious_table1},
      {{"oblivious-table2", "regular patterns on FT(32,2) (Table II)"}, oblivious_table2},
      {{"oblivious-table3", "regular patterns on FT(8,3) and FT(16,3) (Table III)"}, oblivious_table3},
      {{"clustered", "clustered traffic (Figs. 12-13)"}, clustered},
      {{"hotspot", "four hot spots (Figs. 14-15)"}, hotspot},
      {{"drb-fig4", "DRB k-permutation flows (DRB Fig. 4 / Table 1)"}, drb_fig4},
      {{"mikant-table1", "MiKANT topology properties (Li and Chu Table I)"}, mikant_table1},
      {{"rfc-ancestors", "common ancestors around the Theorem 4.2 threshold"}, rfc_ancestors},
      {{"rfc-disconnect", "links to remove to disconnect / lose up/down (Camarero Table 3)"}, rfc_disconnect},
  };
  return list;
}

}  // namespace

const std::vector<ExperimentInfo>& experiment_list() {
  static const std::vector<ExperimentInfo> list = [] {
    std::vector<ExperimentInfo> out;
    for (const Entry& entry : entries()) out.push_back(entry.info);
    return out;
  }();
  return list;
}

Result<ExperimentReport> run_experiment(std::string_view name, const ExperimentOptions& options) {
  for (const Entry& entry : entries()) {
    if (entry.info.name != name) continue;
    ExperimentReport report;
    if (Status status = entry.run(report, options); !status.ok()) return status;
    return report;
  }
  std::string known;
  for (const Entry& entry : entries()) known += (known.empty() ? "" : ", ") + std::string(entry.info.name);
  return Status::Error(fmt::format("unknown experiment \"{}\"; known: {}", name, known));
}

std::string format_table(const ExperimentTable& table) {
  std::vector<size_t> width(table.header.size(), 0);
  for (size_t i = 0; i < table.header.size(); ++i) width[i] = table.header[i].size();
  for (const auto& row : table.rows)
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out = table.title + "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t i = 0; i < cells.size() && i < width.size(); ++i)
      text += fmt::format("{}{:<{}}", i ? "  " : "", cells[i], width[i]);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  line(table.header);
  for (const auto& row : table.rows) line(row);
  for (const std::string& note : table.notes) out += "  * " + note + "\n";
  return out;
}

Result<TopologyCounts> measure_mikant(int k, int n) {
  Result<Fabric> fabric = generate_mikant(k, n);
  if (!fabric.ok()) return fabric.status();
  TopologyCounts out;
  out.nodes = fabric->count(NodeType::kCa);
  out.switches = fabric->count(NodeType::kSwitch);
  out.links = fabric->switch_links() + out.nodes;
  std::vector<int> distance(fabric->size());
  for (int source = 0; source < fabric->size(); ++source) {
    if (fabric->node(source).is_switch()) continue;
    std::ranges::fill(distance, -1);
    distance[source] = 0;
    std::deque<int> queue{source};
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      // Paths run through switches only: a CA is an end, never a hop.
      if (x != source && !fabric->node(x).is_switch()) continue;
      for (int p = 1; p <= fabric->node(x).num_ports; ++p) {
        const int y = fabric->node(x).ports[p].peer.node;
        if (y >= 0 && distance[y] < 0) {
          distance[y] = distance[x] + 1;
          queue.push_back(y);
        }
      }
    }
    for (int d = 0; d < fabric->size(); ++d)
      if (!fabric->node(d).is_switch()) {
        out.distance_sum += distance[d];
        out.diameter = std::max(out.diameter, distance[d]);
      }
  }
  return out;
}

bool matches_mikant_formulas(const TopologyCounts& measured, int k, int n, std::string* why) {
  long kn = 1;
  for (int i = 0; i < n; ++i) kn *= k;
  // Theorem 6 as one fraction: (4n(k-1)k^n - 2k^n + 2 - (k-1)k^n) / (2(k-1)k^n).
  const long numerator = 4L * n * (k - 1) * kn - 2 * kn + 2 - (k - 1) * kn;
  const long denominator = 2L * (k - 1) * kn;
  const long nodes = 2 * kn;
  std::vector<std::string> differences;
  auto expect = [&](const char* what, long ours, long paper) {
    if (ours != paper) differences.push_back(fmt::format("{} {} vs {}", what, ours, paper));
  };
  expect("nodes", measured.nodes, nodes);
  expect("switches", measured.switches, (2L * n - 2) * kn / k);
  expect("links", measured.links, (2L * n - 1) * kn);
  expect("diameter", measured.diameter, 2L * n);
  // average = distance_sum / nodes^2 == numerator / denominator
  if (static_cast<__int128>(measured.distance_sum) * denominator != static_cast<__int128>(numerator) * nodes * nodes)
    differences.push_back(fmt::format("average distance {}/{} vs {}/{}", measured.distance_sum, nodes * nodes,
                                      numerator, denominator));
  if (why) {
    why->clear();
    for (const std::string& d : differences) *why += (why->empty() ? "" : "; ") + d;
  }
  return differences.empty();
}

Result<ExperimentTable> drb_table(int ports, int levels, const std::vector<int>& ks, int runs, int threshold,
                                  uint64_t seed, int* checks, int* failed) {
  Result<DrbFabric> fabric = make_drb_fabric(ports, levels);
  if (!fabric.ok()) return fabric.status();
  const int hosts = static_cast<int>(fabric->hosts.size());
  const int t = threshold >= 0 ? threshold : default_threshold(hosts);
  ExperimentTable table{
      fmt::format("DRB Fig. 4 / Table 1: average maximum link load of k-permutation flows on FT({},{}), {} hosts, "
                  "{} runs",
                  ports, levels, hosts, runs),
      {"k", "optimal", "D-mod-k", "VLB", "Micro", "DRB T=0", fmt::format("DRB T={}", t), "estimate (5)",
       "DRB - est.", "DRB best"},
      {},
      {}};
  for (int k : ks) {
    auto mean_of = [&](DrbPolicy policy, int threshold_here) {
      return simulate_max_load(*fabric, {policy, k, runs, threshold_here, seed + static_cast<uint64_t>(k)}).mean;
    };
    const double dmodk = mean_of(DrbPolicy::kDmodk, 0), vlb = mean_of(DrbPolicy::kVlb, 0),
                 micro = mean_of(DrbPolicy::kMicro, 0), drb0 = mean_of(DrbPolicy::kDrb, 0),
                 drb = mean_of(DrbPolicy::kDrb, t);
    const double estimate = drb_estimate(hosts, k, t);
    const bool best = drb <= std::min({dmodk, vlb, micro, drb0});
    if (checks) ++*checks;
    if (failed) *failed += !best;
    table.rows.push_back({std::to_string(k), std::to_string(k), fixed(dmodk), fixed(vlb), fixed(micro), fixed(drb0),
                          fixed(drb), fixed(estimate), fmt::format("{:+.2f}", drb - estimate), yes_no(best)});
  }
  table.notes.push_back(fmt::format(
      "Our copy of the paper lost its formulas and Table 1's numbers: the paper's side is the optimum k (the black "
      "line of Fig. 4), the claim that DRB with its threshold is best, and estimate (5) rebuilt from the text as "
      "k + ln ln N / ln 2 + T. T = {} {}.",
      t, threshold >= 0 ? "as given" : "is ours, floor(ln ln N / ln 2): formula (4) is lost"));
  return table;
}

}  // namespace ftclos
