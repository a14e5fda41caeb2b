// `ftclos audit TOPO LFT... [--pathbits FILE | --offset K | --all-offsets]
// [--guid2lid FILE] [--json FILE] [--html FILE]` or `ftclos audit TOPO [--scheme
// NAME] [--lmc L]` (auto when no tables are given): what a set of forwarding
// tables does with every CA pair
// (reachability, loops, credit loops, up/down, minimality) and the worst
// contention a permutation can meet on them (audit.h). The tables come from
// OpenSM's opensm-lfts.dump or ibroute / dump_lfts output, or from routing
// the topology with one of our schemes, for comparison. `--compare FILE...`
// and `--schemes S,..` add more sets, each audited on its own and shown side
// by side with the first (report/compare.h).
// Exit status: 0 the tables are sound, 1 unreachable pairs or (credit)
// loops in any set, 2 bad input. The summary goes to stdout (unless --json -
// takes it), progress to stderr when it is a terminal.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "audit/audit.h"
#include "audit_tables.h"
#include "cli_common.h"
#include "commands.h"
#include "core/netfile.h"
#include "detect/detect.h"
#include "detect/summary.h"
#include "report/compare.h"
#include "report/html_report.h"
#include "traffic/pattern_load.h"
#include "traffic/patterns.h"

namespace ftclos::cli {
namespace {

struct AuditOptions {
  std::string topology;
  TableSources sources;
  std::string json;  // empty: not written
  std::string html;  // empty: not written
  std::vector<std::string> patterns;  // NAME[:params], see `ftclos patterns`
  int instances = 0;                  // 0: the pattern's default
  uint64_t seed = 1;
};

// What the audit found on one set of tables.
struct SetAudit {
  Correctness correctness;
  Contention contention;
  std::vector<PatternStats> patterns;  // one per --pattern, in order
};

bool sound(const SetAudit& audit) {
  const Correctness& c = audit.correctness;
  return c.unreachable == 0 && c.loops == 0 && c.credit_loops == 0;
}

bool nonblocking(const Contention& contention) { return contention.worst_case <= 1 + 1e-9; }

// Channels grouped by the level they leave and their direction, with how
// many SD pairs each carries.
struct ChannelGroup {
  int level = 0;
  std::string direction;
  std::map<long, int> channels_by_pairs;
  double max_matching = 0;
};

std::vector<ChannelGroup> group_channels(const Fabric& fabric, const Levels& levels, const Contention& contention) {
  std::map<std::pair<int, std::string>, ChannelGroup> groups;
  for (const LinkLoad& link : contention.links) {
    const std::string direction = direction_name(ftclos::direction(fabric, levels, link.channel));
    ChannelGroup& group = groups[{link.level, direction}];
    group.level = link.level;
    group.direction = direction;
    ++group.channels_by_pairs[link.pairs];
    group.max_matching = std::max(group.max_matching, link.matching);
  }
  std::vector<ChannelGroup> out;
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

// "pairs:channels" for every count, or 8 ranges when there are more counts.
std::string histogram(const std::map<long, int>& channels_by_pairs) {
  std::vector<std::string> buckets;
  if (channels_by_pairs.size() <= 8) {
    for (const auto& [pairs, channels] : channels_by_pairs) buckets.push_back(fmt::format("{}:{}", pairs, channels));
    return fmt::format("{}", fmt::join(buckets, " "));
  }
  const long low = channels_by_pairs.begin()->first, high = channels_by_pairs.rbegin()->first;
  const long width = (high - low) / 8 + 1;
  for (long from = low; from <= high; from += width) {
    int channels = 0;
    for (auto it = channels_by_pairs.lower_bound(from); it != channels_by_pairs.end() && it->first < from + width; ++it)
      channels += it->second;
    if (channels > 0) buckets.push_back(fmt::format("{}-{}:{}", from, from + width - 1, channels));
  }
  return fmt::format("{}", fmt::join(buckets, " "));
}

constexpr size_t kWitnessShown = 10;

std::string tables_line(const TableSet& set) {
  return fmt::format("{}; LMC {}, max LID {}; offsets: {}", set.origin, set.lids.lmc, set.lids.max_lid,
                     describe(set.offsets));
}

std::string fabric_line(const Fabric& fabric, const Detection& detection) {
  return fmt::format("fabric: {}; {} CAs, {} switches\n", family_summary(detection), fabric.count(NodeType::kCa),
                     fabric.count(NodeType::kSwitch));
}

void print_summary(const Fabric& fabric, const Detection& detection, const TableSet& tables, const SetAudit& audit) {
  const Correctness& correctness = audit.correctness;
  const Contention& contention = audit.contention;
  fmt::print("{}tables: {}\n", fabric_line(fabric, detection), tables_line(tables));
  for (const std::string& warning : tables.warnings) fmt::print("warning: {}\n", warning);
  fmt::print("pairs: {}\nunreachable: {}\nloops: {}\ncredit loops: {}\nup/down violations: {}\nnon-minimal: {}\n",
             correctness.pairs, correctness.unreachable, correctness.loops, correctness.credit_loops,
             correctness.updown_violations, correctness.non_minimal);
  for (const std::string& example : correctness.examples) fmt::print("  e.g. {}\n", example);
  fmt::print("worst-case contention: {:g}{}\n", contention.worst_case, contention.exact ? "" : " (a bound)");
  if (!contention.links.empty()) {
    const Node& sw = fabric.node(contention.worst_link.node);
    fmt::print("worst link: \"{}\" port {} ({})\n", sw.display_name(), contention.worst_link.port, format_guid(sw.guid));
  }
  std::vector<std::string> witness;
  for (size_t i = 0; i < std::min(kWitnessShown, contention.witness.size()); ++i)
    witness.push_back(fmt::format("{} -> {}", fabric.node(contention.witness[i].first).display_name(),
                                  fabric.node(contention.witness[i].second).display_name()));
  fmt::print("witness ({} of {} pairs): {}\n", witness.size(), contention.witness.size(), fmt::join(witness, ", "));
  fmt::print("nonblocking: {}\n", nonblocking(contention) ? "yes" : "no");
  if (optu_is_baseload(detection))
    fmt::print("oblivious ratio: {:g} (full fat-tree: OPTU = baseload, Corollary 1)\n", contention.worst_case);
  else
    fmt::print("oblivious ratio: n/a (not a full fat-tree, the optimum is not known)\n");
  fmt::print("SD pairs per channel (pairs:channels), by level and direction:\n");
  for (const ChannelGroup& group : group_channels(fabric, detection.levels, contention)) {
    int channels = 0;
    for (const auto& [pairs, count] : group.channels_by_pairs) channels += count;
    fmt::print("  level {} {}: {} channels, worst {:g}; {}\n", group.level, group.direction, channels,
               group.max_matching, histogram(group.channels_by_pairs));
  }
  for (const std::string& note : contention.notes) fmt::print("note: {}\n", note);
}

// Every set but the primary one: where it came from, then the table of all.
void print_comparison(const std::vector<TableSet>& sets, bool has_primary, const std::vector<ComparedSet>& compared) {
  fmt::print("compared sets:\n");
  for (size_t i = has_primary ? 1 : 0; i < sets.size(); ++i) {
    fmt::print("  {}: {}\n", sets[i].label, tables_line(sets[i]));
    for (const std::string& warning : sets[i].warnings) fmt::print("    warning: {}\n", warning);
  }
  fmt::print("comparison:\n{}", comparison_table(compared));
}

void print_patterns(const Detection& detection, const std::vector<TableSet>& sets, const std::vector<SetAudit>& audits) {
  if (audits.front().patterns.empty()) return;
  fmt::print("traffic patterns ({}):\n{}", optu_basis(detection) == OptuBasis::kBaseload
                                               ? "OPTU = baseload, Corollary 1"
                                               : "OPTU bounded below by baseload and sub-tree cuts; ratios are upper bounds",
             pattern_table_header());
  for (size_t p = 0; p < audits.front().patterns.size(); ++p)
    for (size_t i = 0; i < sets.size(); ++i) fmt::print("{}", pattern_table_row(sets[i].label, audits[i].patterns[p]));
}

ComparedSet compared_set(const Detection& detection, const TableSet& set, const SetAudit& audit) {
  ComparedSet out{set.label, set.origin, set.lids.lmc, describe(set.offsets), set.warnings, audit.correctness,
                  audit.contention.worst_case, audit.contention.exact, {}, audit.patterns};
  if (optu_is_baseload(detection)) out.oblivious_ratio = audit.contention.worst_case;
  return out;
}

nlohmann::json fabric_json(const std::string& topology, const Detection& detection) {
  return {{"topology", topology}, {"family", family_summary(detection)}, {"full_fat_tree", optu_is_baseload(detection)}};
}

// The primary set in full.
nlohmann::json audit_json(const Fabric& fabric, const Detection& detection, const std::string& topology,
                          const TableSet& tables, const SetAudit& audit) {
  using nlohmann::json;
  const Correctness& correctness = audit.correctness;
  const Contention& contention = audit.contention;
  json out = fabric_json(topology, detection);
  out.update(json{
      {"tables", tables.origin},
      {"lmc", tables.lids.lmc},
      {"offsets", describe(tables.offsets)},
      {"unknown_lids", tables.unknown_lids},
      {"warnings", tables.warnings},
      {"pairs", correctness.pairs},
      {"unreachable", correctness.unreachable},
      {"loops", correctness.loops},
      {"credit_loops", correctness.credit_loops},
      {"updown_violations", correctness.updown_violations},
      {"non_minimal", correctness.non_minimal},
      {"examples", correctness.examples},
      {"worst_case_contention", contention.worst_case},
      {"exact", contention.exact},
      {"nonblocking", nonblocking(contention)},
      {"notes", contention.notes},
  });
  if (optu_is_baseload(detection)) {
    out["oblivious_ratio"] = contention.worst_case;
  } else {
    out["oblivious_ratio"] = nullptr;
    out["oblivious_ratio_note"] = "not a full fat-tree (PGFT labels, no deviations, as much capacity up as down at "
                                  "every level): the optimal worst case is not known here";
  }
  auto channel = [&](PortRef port) {
    const Node& sw = fabric.node(port.node);
    return json{{"switch", sw.display_name()}, {"guid", format_guid(sw.guid)}, {"port", port.port}};
  };
  out["worst_link"] = contention.links.empty() ? json(nullptr) : channel(contention.worst_link);
  json witness = json::array();
  for (const auto& [source, destination] : contention.witness)
    witness.push_back({fabric.node(source).display_name(), fabric.node(destination).display_name()});
  out["witness"] = std::move(witness);
  json links = json::array();
  for (const LinkLoad& link : contention.links) {
    json entry = channel(link.channel);
    entry["level"] = link.level;
    entry["direction"] = direction_name(direction(fabric, detection.levels, link.channel));
    entry["pairs"] = link.pairs;
    entry["sources"] = link.sources;
    entry["destinations"] = link.destinations;
    entry["matching"] = link.matching;
    links.push_back(std::move(entry));
  }
  out["links"] = std::move(links);
  json groups = json::array();
  for (const ChannelGroup& group : group_channels(fabric, detection.levels, contention)) {
    json by_pairs = json::object();
    for (const auto& [pairs, channels] : group.channels_by_pairs) by_pairs[std::to_string(pairs)] = channels;
    groups.push_back({{"level", group.level}, {"direction", group.direction}, {"worst", group.max_matching},
                      {"channels_by_pairs", std::move(by_pairs)}});
  }
  out["channel_histograms"] = std::move(groups);
  out["patterns"] = patterns_json(audit.patterns);
  return out;
}

// The --html page: the primary set in detail when there is one, every set
// side by side when there are several.
std::string audit_page(const Fabric& fabric, const Detection& detection, const AuditOptions& options,
                       const std::vector<TableSet>& sets, const std::vector<SetAudit>& audits,
                       const std::vector<ComparedSet>& compared) {
  const bool has_primary = options.sources.has_primary();
  AuditReportData data = has_primary
                             ? audit_report_data(fabric, detection, audits.front().correctness, audits.front().contention)
                             : fabric_report_data(fabric, detection);
  data.title = options.topology;
  if (has_primary) {
    data.tables = tables_line(sets.front());
    data.warnings = sets.front().warnings;
    if (optu_is_baseload(detection)) data.oblivious_ratio = audits.front().contention.worst_case;
  } else {
    data.tables = fmt::format("{} sets compared", sets.size());
  }
  if (options.sources.comparing()) data.compared = compared;
  for (size_t p = 0; p < options.patterns.size(); ++p)
    for (size_t i = 0; i < sets.size(); ++i) data.patterns.push_back({sets[i].label, audits[i].patterns[p]});
  return audit_html(data);
}

// The --pattern options, checked against the host count before any work.
Result<std::vector<PatternSpec>> parse_patterns(const Fabric& fabric, const AuditOptions& options) {
  std::vector<PatternSpec> out;
  const int hosts = static_cast<int>(pattern_hosts(fabric).size());
  for (const std::string& text : options.patterns) {
    Result<PatternSpec> pattern = parse_pattern(text);
    if (!pattern.ok()) return pattern.status();
    if (Status status = pattern_fits(*pattern, hosts); !status.ok()) return status;
    out.push_back(std::move(*pattern));
  }
  return out;
}

// Correctness, worst-case contention and the patterns on one set.
Result<SetAudit> audit_set(const Fabric& fabric, const Detection& detection, const TableSet& set,
                           const std::vector<PatternSpec>& patterns, const AuditOptions& options, Progress& progress) {
  progress.stage(fmt::format("tables ready ({}); checking every CA pair", set.origin));
  const AuditInput input{fabric, detection.levels, set.lids, set.lfts, set.offsets, set.dest_sl, {}};
  SetAudit audit;
  audit.correctness = check_correctness(input);
  progress.stage("correctness done; computing the worst-case contention");
  audit.contention = worst_case_contention(input);
  progress.stage("contention done");
  LoadPlan plan({fabric, set.lids, set.lfts, set.offsets});
  for (const PatternSpec& pattern : patterns) {
    Result<PatternStats> stats =
        evaluate_pattern(plan, detection.levels, optu_basis(detection), pattern, {options.instances, options.seed});
    if (!stats.ok()) return stats.status();
    audit.patterns.push_back(std::move(*stats));
  }
  return audit;
}

Status check_options(const TableSources& sources) {
  if (!sources.lft_files.empty() && !sources.scheme.empty())
    return Status::Error("give either LFT files or --scheme NAME, not both");
  if (!sources.has_primary() && !sources.comparing())
    return Status::Error("give LFT files, --scheme NAME, --compare FILE... or --schemes NAME,..");
  if (sources.lft_files.empty() && sources.compare_files.empty() && !sources.guid2lid.empty())
    return Status::Error("--guid2lid reads LIDs for LFT files; schemes assign their own");
  if (sources.scheme.empty() && sources.schemes.empty() && sources.lmc >= 0)
    return Status::Error("--lmc is for --scheme and --schemes; LFT files carry their own");
  if (sources.lft_files.empty() && sources.scheme.empty() && sources.compare_files.empty() && sources.offsets.given())
    return Status::Error("--pathbits, --offset and --all-offsets are for LFT files and --scheme; "
                         "--schemes sets use each scheme's own offsets");
  return Status::Ok();
}

// Runs the whole audit; returns the exit code.
int run(const AuditOptions& options) {
  auto bad_input = [](const Status& status) { return cli::bad_input("audit", status); };
  Progress progress("audit");
  const TableSources& sources = options.sources;
  if (Status status = check_options(sources); !status.ok()) return bad_input(status);
  Result<Fabric> fabric = read_netfile(options.topology);
  if (!fabric.ok()) return bad_input(fabric.status());
  Result<std::vector<PatternSpec>> patterns = parse_patterns(*fabric, options);
  if (!patterns.ok()) return bad_input(patterns.status());
  const Detection detection = detect(*fabric);
  Result<std::vector<TableSet>> sets = load_table_sets(*fabric, detection, sources, progress);
  if (!sets.ok()) return bad_input(sets.status());
  std::vector<SetAudit> audits;
  std::vector<ComparedSet> compared;
  for (const TableSet& set : *sets) {
    Result<SetAudit> audit = audit_set(*fabric, detection, set, *patterns, options, progress);
    if (!audit.ok()) return bad_input(audit.status());
    compared.push_back(compared_set(detection, set, *audit));
    audits.push_back(std::move(*audit));
  }

  if (options.json != "-") {
    if (sources.has_primary())
      print_summary(*fabric, detection, sets->front(), audits.front());
    else
      fmt::print("{}", fabric_line(*fabric, detection));
    if (sources.comparing()) print_comparison(*sets, sources.has_primary(), compared);
    print_patterns(detection, *sets, audits);
  }
  if (!options.json.empty()) {
    nlohmann::json document = sources.has_primary()
                                  ? audit_json(*fabric, detection, options.topology, sets->front(), audits.front())
                                  : fabric_json(options.topology, detection);
    if (sources.comparing()) document["compare"] = comparison_json(compared);
    if (Status status = write_output(options.json, document.dump(2) + "\n"); !status.ok()) return bad_input(status);
  }
  if (!options.html.empty())
    if (Status status = write_output(options.html, audit_page(*fabric, detection, options, *sets, audits, compared));
        !status.ok())
      return bad_input(status);
  return std::ranges::all_of(audits, sound) ? 0 : 1;
}

}  // namespace

void add_audit(CLI::App& app) {
  auto options = std::make_shared<AuditOptions>();
  TableSources& sources = options->sources;
  CLI::App* sub = app.add_subcommand(
      "audit", "Audit forwarding tables: reachability, loops, credit loops, worst-case contention");
  add_topology(*sub, options->topology);
  sub->add_option("LFT", sources.lft_files,
                  "opensm-lfts.dump or ibroute / dump_lfts output (format detected per block; several allowed)");
  CLI::Option* path_bits = sub->add_option("--pathbits", sources.offsets.path_bits,
                                           "Sources use the offsets of this `0x<port GUID> <bits>` file");
  CLI::Option* offset = sub->add_option("--offset", sources.offsets.offset, "Every source uses this offset (default 0)")
                            ->check(CLI::Range(0, 127));
  CLI::Option* all_offsets = sub->add_flag("--all-offsets", sources.offsets.all_offsets,
                                           "Every source splits its traffic over all 2^LMC offsets");
  path_bits->excludes(offset)->excludes(all_offsets);
  offset->excludes(all_offsets);
  sub->add_option("--guid2lid", sources.guid2lid,
                  "OpenSM's guid2lid or opensm-subnet.lst: the LIDs to check against");
  add_json(*sub, options->json);
  sub->add_option("--html", options->html, "Also write a self-contained HTML report (heatmaps, histograms) to this file");
  CLI::Option* scheme = add_scheme(*sub, sources.scheme, "Instead of LFT files, route the topology with this scheme");
  sub->add_option("--compare", sources.compare_files,
                  "Also audit these LFT files, one whole set each, and compare every set in one table");
  add_schemes(*sub, sources.schemes,
              "Also route the topology with these schemes (comma-separated), each on its own path bits, and compare "
              "every set in one table");
  add_lmc(*sub, sources.lmc, "LMC for --scheme (default 0) and --schemes (default: what each scheme needs)");
  sub->add_option("--pattern", options->patterns,
                  "Also load the tables with traffic pattern NAME[:params] (repeatable; names as in `ftclos patterns`)");
  sub->add_option("--instances", options->instances, "Instances per random pattern (default 32)");
  sub->add_option("--seed", options->seed, "Seed of the random patterns (default 1)")->check(kNonNegative);
  sub->callback([options, scheme] {
    // --scheme auto is the default only where no other tables are given.
    TableSources& sources = options->sources;
    if (scheme->count() == 0 &&
        (!sources.lft_files.empty() || !sources.compare_files.empty() || !sources.schemes.empty()))
      sources.scheme.clear();
    set_exit_code(run(*options));
  });
}

}  // namespace ftclos::cli
