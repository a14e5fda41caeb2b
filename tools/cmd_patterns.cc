// `ftclos patterns TOPO [--schemes S[,S2..]] [--lmc L] --pattern NAME[:params]...
// [--instances N] [--seed S] [--offset K | --all-offsets]`: how the traffic
// patterns of Yuan et al. §VI (and the classic permutations) load a fabric
// routed by each scheme: mean performance ratio MLOAD/OPTU with its range,
// MLOAD, OPTU and the ORCS per-flow bandwidth, plus the effective bisection
// bandwidth (traffic/pattern_load.h has the definitions).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "detect/detect.h"
#include "detect/summary.h"
#include "route/routing.h"
#include "traffic/pattern_load.h"
#include "traffic/patterns.h"

namespace ftclos::cli {
namespace {

struct PatternsOptions {
  std::string file;
  std::vector<std::string> schemes{"auto"};
  int lmc = -1;  // -1: what each scheme needs
  std::vector<std::string> patterns;
  int instances = 0;
  uint64_t seed = 1;
  int offset = -1;  // -1: the scheme's own offsets
  bool all_offsets = false;
  HintFiles hint_files;
};

int run(const PatternsOptions& options) {
  std::vector<PatternSpec> patterns;
  bool has_bisection = false;
  for (const std::string& text : options.patterns) {
    Result<PatternSpec> spec = parse_pattern(text);
    if (!spec.ok()) {
      fmt::print(stderr, "ftclos patterns: {}\n", spec.status().message());
      return 2;
    }
    has_bisection |= spec->name == "bisection";
    patterns.push_back(*spec);
  }
  if (!has_bisection) patterns.push_back(*parse_pattern("bisection"));  // effective bisection bandwidth
  Result<Fabric> fabric = read_topology("patterns", options.file);
  if (!fabric.ok()) {
    fmt::print(stderr, "ftclos patterns: {}\n", fabric.status().message());
    return 2;
  }
  // Bad input fails before any output: patterns that do not fit, unknown schemes.
  const int hosts = static_cast<int>(pattern_hosts(*fabric).size());
  for (const PatternSpec& pattern : patterns) {
    if (Status status = pattern_fits(pattern, hosts); !status.ok()) {
      fmt::print(stderr, "ftclos patterns: {}\n", status.message());
      return 2;
    }
  }
  for (const std::string& name : options.schemes) {
    if (Result<std::unique_ptr<Scheme>> scheme = make_scheme(name); !scheme.ok()) {
      fmt::print(stderr, "ftclos patterns: {}\n", scheme.status().message());
      return 2;
    }
  }
  Result<HostHints> hints = read_hints("patterns", options.hint_files, *fabric);
  if (!hints.ok()) {
    fmt::print(stderr, "ftclos patterns: {}\n", hints.status().message());
    return 2;
  }
  const Detection detection = detect(*fabric, *hints);
  const OptuBasis basis = optu_basis(detection);
  fmt::print("fabric: {}, {} CAs\n", family_summary(detection), hosts);
  fmt::print("OPTU: {}\n", basis == OptuBasis::kBaseload
                               ? "baseload, exact on a full fat-tree (Corollary 1)"
                               : "max(baseload, sub-tree cut), a lower bound: ratios are upper bounds");
  std::vector<std::pair<std::string, SchemeTables>> routed;
  for (const std::string& name : options.schemes) {
    bool bad_input = false;
    Result<SchemeTables> tables = route_scheme(*fabric, detection, name, options.lmc, LidSpace::kUnicast, &bad_input);
    if (!tables.ok()) {
      fmt::print(stderr, "ftclos patterns: {}\n", tables.status().message());
      return bad_input ? 2 : 1;
    }
    if (options.all_offsets) tables->offsets = {OffsetChoice::Mode::kAllOffsets, 0, {}};
    if (options.offset >= 0) tables->offsets = {OffsetChoice::Mode::kFixed, options.offset, {}};
    fmt::print("scheme {}: LMC {}, {}\n", name, tables->lids.lmc, describe(tables->offsets));
    for (const std::string& note : tables->notes) fmt::print("  note: {}\n", note);
    routed.emplace_back(name, std::move(*tables));
  }
  fmt::print("\n");
  fmt::print("{}", pattern_table_header());
  std::vector<LoadPlan> plans;  // per scheme, shared by the patterns
  for (const auto& [name, tables] : routed)
    plans.emplace_back(LoadInput{*fabric, tables.lids, tables.routing.lfts, tables.offsets});
  long undelivered = 0;
  for (const PatternSpec& pattern : patterns) {
    for (size_t i = 0; i < routed.size(); ++i) {
      const std::string& name = routed[i].first;
      Result<PatternStats> stats =
          evaluate_pattern(plans[i], detection.levels, basis, pattern, {options.instances, options.seed});
      if (!stats.ok()) {
        fmt::print(stderr, "ftclos patterns: {}\n", stats.status().message());
        return 2;
      }
      fmt::print("{}", pattern_table_row(name, *stats));
      undelivered += stats->undelivered;
    }
  }
  fmt::print("\nratio: mean over instances (32 for random patterns unless --instances), sd its standard deviation;\n"
             "flow BW: mean per-flow bandwidth (ORCS); on `bisection` the effective bisection bandwidth.\n");
  if (undelivered > 0) {
    fmt::print(stderr, "ftclos patterns: {} SD pairs were not delivered; the loads leave them out\n", undelivered);
    return 1;
  }
  return 0;
}

}  // namespace

void add_patterns(CLI::App& app) {
  auto options = std::make_shared<PatternsOptions>();
  std::string help = "Traffic pattern NAME[:params], repeatable:";
  for (const PatternHelp& pattern : pattern_help()) help += fmt::format("\n  {:<20} {}", pattern.usage, pattern.what);
  CLI::App* sub = app.add_subcommand("patterns", "Performance ratios of traffic patterns under routing schemes");
  add_topology(*sub, options->file);
  add_schemes(*sub, options->schemes, "Routing schemes to compare, comma-separated (default auto)");
  add_lmc(*sub, options->lmc, "LMC (default: what each scheme needs, as far as the LIDs allow)");
  add_host_hints(*sub, options->hint_files);
  sub->add_option("--pattern", options->patterns, help)->required();
  sub->add_option("--instances", options->instances, "Instances per random pattern (default 32, as in §VI)")
      ->check(kPositive);
  sub->add_option("--seed", options->seed, "Seed of the random instances (default 1)")->check(kNonNegative);
  CLI::Option* offset =
      sub->add_option("--offset", options->offset, "Every source uses this LID offset")->check(CLI::Range(0, 127));
  sub->add_flag("--all-offsets", options->all_offsets, "Every source splits its traffic over all offsets")
      ->excludes(offset);
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
