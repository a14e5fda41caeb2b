// Yuan et al., "Oblivious routing in fat-tree based system area networks",
// §VI: Table I (worst case), Tables II-III (regular patterns) and the
// clustered and hot-spot figures, on FT(m,n) routed by our OSRM and MLID
// (and, for Table I, multipath and the analysis-only WSR).
#include "research/experiment_parts.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "audit/audit.h"
#include "detect/detect.h"
#include "gen/generate.h"
#include "research/path_set_contention.h"
#include "research/wsr.h"
#include "traffic/patterns.h"

namespace ftclos {
namespace experiment_parts {
namespace {

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
  if (scheme == "multipath") return "OMRMN";
  if (scheme == "wsr") return "WSR";
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

// Whether the tables' LIDs fit a real subnet (see LidSpace).
bool fits_unicast(const LidMap& lids) { return lids.max_lid <= kMaxUnicastLid; }

// Says so when a scheme was studied in the analysis-only LID space.
void note_lid_space(const std::string& who, const SchemeTables& tables, ExperimentTable& table) {
  if (fits_unicast(tables.lids)) return;
  table.notes.push_back(fmt::format("{} at LMC {} needs LIDs up to {:#x}, past InfiniBand's unicast range: routed in "
                                    "the analysis-only LID space, as the paper studies it.",
                                    who, tables.lids.lmc, tables.lids.max_lid));
}

// One Table I figure: the worst case of a scheme on a fabric.
struct WorstCase {
  double ratio = 0;
  bool exact = true;
  std::string lmc;  // "-" for a scheme without LFTs
  std::vector<std::string> notes;
};

Result<WorstCase> lft_worst_case(const Ft& ft, const std::string& scheme, LidSpace space) {
  Result<SchemeTables> tables = route_scheme(ft.fabric, ft.detection, scheme, -1, space, nullptr, PathBitsUsers::kAll);
  if (!tables.ok()) return tables.status();
  const AuditInput audit{ft.fabric, ft.detection.levels, tables->lids, tables->routing.lfts, tables->offsets, {}, {}};
  const Contention contention = worst_case_contention(audit);
  const std::string lmc = fmt::format("{}{}", tables->lids.lmc, fits_unicast(tables->lids) ? "" : " (*)");
  return WorstCase{contention.worst_case, contention.exact, lmc, tables->notes};
}

// Pairs whose WSR path is the one `lfts` give: every switch hop leaves by the LFT's port for d's base LID.
long pairs_following(const WsrRoutes& routes, const Fabric& fabric, const LidMap& lids, const Lfts& lfts) {
  long same = 0;
  for (int s = 0; s < routes.host_count(); ++s)
    for (int d = 0; d < routes.host_count(); ++d) {
      if (s == d) continue;
      const int lid = lids.base[routes.hosts[d]];
      same += std::ranges::all_of(routes.path(s, d), [&](int channel) {
        const PortRef hop = routes.port_of(channel);
        return !fabric.node(hop.node).is_switch() || lfts.at(hop.node, lid) == hop.port;
      });
    }
  return same;
}

// WSR has no LFTs in general (wsr.h): its paths are measured as they are, and set beside D-mod-K's.
Result<WorstCase> wsr_worst_case(const Ft& ft) {
  Result<WsrRoutes> routes = route_wsr(ft.fabric);
  if (!routes.ok()) return routes.status();
  const PathSetContention contention = path_set_contention(routes->pairs_by_channel());
  Result<SchemeTables> dmodk = route_scheme(ft.fabric, ft.detection, "dmodk", 0);
  if (!dmodk.ok()) return dmodk.status();
  const long pairs = static_cast<long>(routes->host_count()) * (routes->host_count() - 1);
  const long same = pairs_following(*routes, ft.fabric, dmodk->lids, dmodk->routing.lfts);
  const PortRef worst = routes->port_of(contention.worst_channel);
  const std::string note = fmt::format(
      "{} of {} pairs take D-mod-K's path (scheme dmodk); first worst channel {} port {} -> {}", same, pairs,
      ft.fabric.node(worst.node).display_name(), worst.port,
      ft.fabric.node(ft.fabric.peer(worst).node).display_name());
  return WorstCase{static_cast<double>(contention.worst_case), true, "-", {note}};
}

// Tables II and III of Yuan et al. §VI does not say whether its meshes wrap
// around. Counted: the wrap-around reading (torus2d/torus3d), which meets the
// paper in more of its cells; the alternative rows set the reading without
// wrap-around beside the same figures, not counted.
struct RegularRow {
  const char* pattern;
  const char* label;
  double mlid, osrm;
  bool alternative = false;
};

std::vector<RegularRow> with_unwrapped_mesh_rows(std::vector<RegularRow> rows) {
  for (size_t i = 0, n = rows.size(); i < n; ++i) {
    const std::string pattern = rows[i].pattern;
    if (pattern == "torus2d") rows.push_back({"mesh2d", "2D, no wrap (alt.)", rows[i].mlid, rows[i].osrm, true});
    if (pattern == "torus3d") rows.push_back({"mesh3d", "3D, no wrap (alt.)", rows[i].mlid, rows[i].osrm, true});
  }
  return rows;
}

Status regular_table(ExperimentReport& report, int m, int n, const std::vector<RegularRow>& paper,
                     const std::string& title, uint64_t seed) {
  Result<Ft> ft = make_ft(m, n);
  if (!ft.ok()) return ft.status();
  Result<SchemeTables> mlid =
      route_scheme(ft->fabric, ft->detection, "mlid", -1, LidSpace::kAnalysis, nullptr, PathBitsUsers::kAll);
  if (!mlid.ok()) return mlid.status();
  Result<SchemeTables> osrm =
      route_scheme(ft->fabric, ft->detection, "osrm", -1, LidSpace::kUnicast, nullptr, PathBitsUsers::kAll);
  if (!osrm.ok()) return osrm.status();
  const std::string ours_osrm = paper_name("osrm", n);
  ExperimentTable table{title,
                        {"pattern", "MLID ours", "paper", "diff", "within 5%", ours_osrm + " ours", "paper", "diff",
                         "within 5%"},
                        {},
                        {}};
  LoadPlan mlid_plan = load_plan(*ft, *mlid), osrm_plan = load_plan(*ft, *osrm);
  for (const RegularRow& row : with_unwrapped_mesh_rows(paper)) {
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
                        "1024 = 32x32 and 8x8x16) with wrap-around links; (alt.) rows: the same without, not "
                        "counted.");
  note_lid_space("MLID", *mlid, table);
  table.notes.push_back(fmt::format("MLID at LMC {}, {} at LMC {}; 32 instances per pattern, random placement "
                                    "(seed {}); ratio = MLOAD / baseload (Corollary 1), mean (min-max).",
                                    mlid->lids.lmc, ours_osrm, osrm->lids.lmc, seed));
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

// One row per size: MLID and OSRM mean ratios of `pattern_of(size)`.
struct SizeSweep {
  std::vector<int> sizes;
  std::vector<Spread> mlid, osrm;
};

Result<SizeSweep> sweep(const Ft& ft, const std::vector<int>& sizes, const std::function<std::string(int)>& pattern_of,
                        uint64_t seed, ExperimentTable& table) {
  Result<SchemeTables> mlid =
      route_scheme(ft.fabric, ft.detection, "mlid", -1, LidSpace::kAnalysis, nullptr, PathBitsUsers::kAll);
  if (!mlid.ok()) return mlid.status();
  Result<SchemeTables> osrm =
      route_scheme(ft.fabric, ft.detection, "osrm", -1, LidSpace::kUnicast, nullptr, PathBitsUsers::kAll);
  if (!osrm.ok()) return osrm.status();
  note_lid_space(ft.name + " MLID", *mlid, table);
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

// Table I's ratio of a scheme on FT(m,n), and its formula.
std::pair<double, std::string> table1_ratio(const std::string& scheme, int m, int n) {
  if (scheme == "multipath") return {1, "1"};
  if (scheme == "osrm") return n == 2 ? std::pair{std::sqrt(m / 2.0), "sqrt(m/2)"} : std::pair{m / 2.0, "m/2"};
  // MLID and WSR
  return n == 2 ? std::pair{m / 2.0, "m/2"} : std::pair{m - 1.0, "m-1"};
}

}  // namespace

Status oblivious_table1(ExperimentReport& report, const ExperimentOptions&) {
  ExperimentTable table{"Yuan et al. Table I: oblivious performance ratio (worst case over all traffic)",
                        {"fabric", "scheme", "LMC", "ours", "paper", "formula", "diff", "match"}, {}, {}};
  struct Case {
    int m, n;
    const char* scheme;
    bool counted;  // false: in the unicast LID space, beside the counted analysis-space row
  };
  // The last row is what a real subnet can carry of MLID on FT(16,3); not counted.
  std::vector<Case> cases;
  for (const auto& [m, n] : {std::pair{8, 2}, std::pair{32, 2}, std::pair{8, 3}, std::pair{16, 3}})
    for (const char* scheme : {"multipath", "osrm", "mlid", "wsr"}) cases.push_back({m, n, scheme, true});
  cases.push_back({16, 3, "mlid", false});
  for (const Case& c : cases) {
    Result<Ft> ft = make_ft(c.m, c.n);
    if (!ft.ok()) return ft.status();
    const std::string scheme = c.scheme;
    Result<WorstCase> measured = scheme == "wsr" ? wsr_worst_case(*ft)
                                                 : lft_worst_case(*ft, scheme, c.counted ? LidSpace::kAnalysis
                                                                                         : LidSpace::kUnicast);
    if (!measured.ok()) return measured.status();
    const double ours = measured->ratio;
    const auto [paper, formula] = table1_ratio(scheme, c.m, c.n);
    const std::string name = paper_name(scheme, c.n) + (c.counted ? "" : " in IB");
    const std::string verdict = c.counted ? check(report, ours == paper) : "(" + yes_no(ours == paper) + ")";
    table.rows.push_back({ft->name, name, measured->lmc, fmt::format("{:g}{}", ours, measured->exact ? "" : " (bound)"),
                          fixed(paper, 0), formula, fmt::format("{:+g}", ours - paper), verdict});
    for (const std::string& note : measured->notes) table.notes.push_back(ft->name + " " + name + ": " + note);
  }
  table.notes.push_back(
      "ours: worst_case_contention (audit.h), the largest bipartite matching of the SD pairs on any channel: the "
      "load a permutation (baseload 1 = OPTU, Corollary 1) can put there, so the worst-case ratio. OMRMN is our "
      "multipath with every source spreading over all 2^LMC offsets (a pair's weight on a channel is its share).");
  table.notes.push_back(
      "WSR (wsr.h) is routed pair by pair in the paper's order, one unit per pair, weights per direction of a "
      "link, ties to the lowest port at each hop; it has no LIDs (-): its paths are measured directly, the same "
      "matching per channel (path_set_contention.h).");
  table.notes.push_back(
      "(*) On FT(16,3) MLID's m-1 needs (m/2)^2 = 64 LIDs per CA, and OMRMN one per top switch, 64: 65,536 CA "
      "LIDs, more than InfiniBand's 49,151 unicast LIDs, so both are routed in an analysis-only LID space "
      "(LidSpace::kAnalysis). \"MLID in IB\" is what a "
      "subnet can carry (LMC 5: half of the level-2 source digit is lost, those up links are chosen by destination); "
      "not counted.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

Status oblivious_table2(ExperimentReport& report, const ExperimentOptions& options) {
  return regular_table(report, 32, 2,
                       {{"ring", "Ring", 3.47, 2.97},
                        {"torus2d", "2D Mesh", 1.88, 1.74},
                        {"torus3d", "3D Mesh", 2.34, 2.14},
                        {"hypercube", "Hypercube", 2.03, 1.90},
                        {"binary-tree", "Binary Tree", 2.37, 2.20}},
                       "Yuan et al. Table II: average performance ratio, regular traffic on FT(32,2)", options.seed);
}

Status oblivious_table3(ExperimentReport& report, const ExperimentOptions& options) {
  if (Status status = regular_table(report, 8, 3,
                                    {{"ring", "Ring", 2.84, 2.80},
                                     {"torus2d", "2D Mesh", 1.64, 1.63},
                                     {"torus3d", "3D Mesh", 2.04, 1.99},
                                     {"hypercube", "Hypercube", 1.90, 1.90},
                                     {"binary-tree", "Binary Tree", 2.07, 2.03}},
                                    "Yuan et al. Table III: average performance ratio, regular traffic on FT(8,3)",
                                    options.seed);
      !status.ok())
    return status;
  return regular_table(report, 16, 3,
                       {{"ring", "Ring", 3.78, 3.78},
                        {"torus2d", "2D Mesh", 2.83, 2.83},
                        {"torus3d", "3D Mesh", 2.48, 2.43},
                        {"hypercube", "Hypercube", 2.11, 2.10},
                        {"binary-tree", "Binary Tree", 2.69, 2.67}},
                       "Yuan et al. Table III: average performance ratio, regular traffic on FT(16,3)", options.seed);
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

}  // namespace experiment_parts
}  // namespace ftclos
