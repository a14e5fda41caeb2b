// `ftclos audit TOPO LFT... [--pathbits FILE | --offset K | --all-offsets]
// [--guid2lid FILE] [--json FILE] [--html FILE]` or `ftclos audit TOPO --scheme NAME
// [--lmc L]`: what a set of forwarding tables does with every CA pair
// (reachability, loops, credit loops, up/down, minimality) and the worst
// contention a permutation can meet on them (audit.h). The tables come from
// OpenSM's opensm-lfts.dump or ibroute / dump_lfts output, or from routing
// the topology with one of our schemes, for comparison.
// Exit status: 0 the tables are sound, 1 unreachable pairs or (credit)
// loops, 2 bad input. The summary goes to stdout, progress to stderr.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit.h"
#include "commands.h"
#include "detect.h"
#include "detect_report.h"
#include "html_report.h"
#include "lft_parse.h"
#include "netfile.h"
#include "pattern_load.h"
#include "patterns.h"
#include "routing.h"

namespace ftclos::cli {
namespace {

struct AuditOptions {
  std::string topology;
  std::vector<std::string> lft_files;
  std::string path_bits;  // empty: not given
  int offset = 0;
  bool offset_given = false;
  bool all_offsets = false;
  std::string guid2lid;  // empty: not given
  std::string json;      // empty: not written
  std::string html;      // empty: not written
  std::string scheme;    // empty: audit LFT files
  int lmc = 0;
  std::vector<std::string> patterns;  // NAME[:params], see `ftclos patterns`
  int instances = 0;                  // 0: the pattern's default
  uint64_t seed = 1;
};

// What the pattern tables call the audited tables.
std::string tables_label(const AuditOptions& options) { return options.scheme.empty() ? "LFTs" : options.scheme; }

// The tables to audit, whichever way they came.
struct Tables {
  LidMap lids;
  Lfts lfts;
  std::vector<int> path_bits;       // a scheme's; empty for LFT files
  std::vector<uint8_t> dest_sl;     // a scheme's; empty = SL 0
  long unknown_lids = 0;
  std::vector<std::string> warnings;
  std::string origin;               // what the summary calls the input
};

using Clock = std::chrono::steady_clock;

// Stage lines on stderr, so long runs show where they are.
class Progress {
 public:
  void stage(const std::string& what) {
    fmt::print(stderr, "ftclos audit: {} ({:.1f} s)\n", what,
               std::chrono::duration<double>(Clock::now() - start_).count());
  }

 private:
  Clock::time_point start_ = Clock::now();
};

// LFT files above this size report their reading every 10%.
constexpr size_t kBigInput = 16 << 20;

Result<Tables> tables_from_files(const Fabric& fabric, const AuditOptions& options, Progress& progress) {
  std::vector<TextFile> files;
  size_t total = 0;
  for (const std::string& path : options.lft_files) {
    Result<TextFile> file = read_text_file(path);
    if (!file.ok()) return file.status();
    total += file->text.size();
    files.push_back(std::move(*file));
  }
  std::optional<TextFile> lid_file;
  if (!options.guid2lid.empty()) {
    Result<TextFile> file = read_text_file(options.guid2lid);
    if (!file.ok()) return file.status();
    lid_file = std::move(*file);
  }
  auto report = [&](int percent) { progress.stage(fmt::format("read {}% of the LFT input", percent)); };
  Result<LftRead> read = parse_lfts(fabric, files, lid_file ? &*lid_file : nullptr,
                                    total >= kBigInput ? std::function<void(int)>(report) : nullptr);
  if (!read.ok()) return read.status();
  return Tables{std::move(read->lids), std::move(read->lfts), {}, {}, read->unknown_lids, std::move(read->warnings),
                fmt::format("{}", fmt::join(options.lft_files, ", "))};
}

Result<Tables> tables_from_scheme(const Fabric& fabric, const Detection& detection, const AuditOptions& options) {
  Result<std::unique_ptr<Scheme>> scheme = make_scheme(options.scheme);
  if (!scheme.ok()) return scheme.status();
  Result<LidMap> lids = assign_lids(fabric, options.lmc);
  if (!lids.ok()) return lids.status();
  Result<Routing> routing = (*scheme)->route({fabric, detection, *lids});
  if (!routing.ok()) return Status::Error(fmt::format("{}: {}", options.scheme, routing.status().message()));
  Tables tables{std::move(*lids), std::move(routing->lfts), std::move(routing->path_bits), std::move(routing->dest_sl),
                0, {}, fmt::format("scheme {} (LMC {})", (*scheme)->name(), options.lmc)};
  for (const std::string& note : routing->notes) tables.warnings.push_back(fmt::format("{}: {}", options.scheme, note));
  if (options.lmc < routing->lmc_needed)
    tables.warnings.push_back(fmt::format("{} needs LMC {} for its full guarantee on this fabric", options.scheme,
                                          routing->lmc_needed));
  return tables;
}

// Which LID of a destination each source uses: as asked, else the scheme's
// path bits, else the base LID.
Result<OffsetChoice> offsets_for(const Fabric& fabric, const AuditOptions& options, const Tables& tables) {
  OffsetChoice choice;
  if (!options.path_bits.empty()) {
    Result<TextFile> file = read_text_file(options.path_bits);
    if (!file.ok()) return file.status();
    Result<std::vector<int>> bits = parse_path_bits(fabric, tables.lids.lmc, *file);
    if (!bits.ok()) return bits.status();
    choice.mode = OffsetChoice::Mode::kPathBits;
    choice.path_bits = std::move(*bits);
  } else if (options.all_offsets) {
    choice.mode = OffsetChoice::Mode::kAllOffsets;
  } else if (options.offset_given) {
    if (options.offset >= tables.lids.lids_per_ca())
      return Status::Error(fmt::format("--offset {} needs LMC {} or more; the tables have LMC {}", options.offset,
                                       std::bit_width(static_cast<unsigned>(options.offset)), tables.lids.lmc));
    choice.offset = options.offset;
  } else if (!tables.path_bits.empty()) {
    choice.mode = OffsetChoice::Mode::kPathBits;
    choice.path_bits = tables.path_bits;
  }
  return choice;
}

// A fat-tree family without deviations: an optimal routing reaches contention
// 1 on every permutation there, so the worst case is the oblivious ratio.
bool full_fat_tree(const Detection& detection) {
  if (detection.degraded()) return false;
  return std::ranges::any_of(detection.families, [](const FamilyMatch& family) {
    return family.name == "ftree" || family.name == "kary" || family.name == "clos2" || family.name == "pgft";
  });
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

void print_summary(const Fabric& fabric, const Detection& detection, const Tables& tables, const OffsetChoice& offsets,
                   const Correctness& correctness, const Contention& contention) {
  fmt::print("fabric: {}; {} CAs, {} switches\n", family_summary(detection), fabric.count(NodeType::kCa),
             fabric.count(NodeType::kSwitch));
  fmt::print("tables: {}; LMC {}, max LID {}; offsets: {}\n", tables.origin, tables.lids.lmc, tables.lids.max_lid,
             describe(offsets));
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
  if (full_fat_tree(detection))
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

nlohmann::json audit_json(const Fabric& fabric, const Detection& detection, const AuditOptions& options,
                          const Tables& tables, const OffsetChoice& offsets, const Correctness& correctness,
                          const Contention& contention, const std::vector<PatternStats>& patterns) {
  using nlohmann::json;
  json out = {
      {"topology", options.topology},
      {"family", family_summary(detection)},
      {"full_fat_tree", full_fat_tree(detection)},
      {"tables", tables.origin},
      {"lmc", tables.lids.lmc},
      {"offsets", describe(offsets)},
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
  };
  if (full_fat_tree(detection)) {
    out["oblivious_ratio"] = contention.worst_case;
  } else {
    out["oblivious_ratio"] = nullptr;
    out["oblivious_ratio_note"] = "not a full fat-tree (ftree, kary, clos2 or pgft without deviations): the optimal "
                                  "worst case is not known here";
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
  json rows = json::array();
  for (const PatternStats& p : patterns)
    rows.push_back({{"pattern", p.pattern}, {"ratio_mean", p.ratio.mean}, {"ratio_min", p.ratio.min},
                    {"ratio_max", p.ratio.max}, {"ratio_sd", p.ratio.stddev}, {"mload", p.mload.mean},
                    {"optu", p.optu.mean}, {"flow_bandwidth", p.flow_bandwidth.mean},
                    {"optu_is_baseload", p.basis == OptuBasis::kBaseload}, {"undelivered", p.undelivered}});
  out["patterns"] = std::move(rows);
  return out;
}

// The --html page: what the audit found plus what only the command knows.
std::string audit_page(const Fabric& fabric, const Detection& detection, const AuditOptions& options,
                       const Tables& tables, const OffsetChoice& offsets, const Correctness& correctness,
                       const Contention& contention, const std::vector<PatternStats>& patterns) {
  AuditReportData data = audit_report_data(fabric, detection, correctness, contention);
  for (const PatternStats& stats : patterns) data.patterns.push_back({tables_label(options), stats});
  data.title = options.topology;
  data.tables = fmt::format("{}; LMC {}, max LID {}; offsets: {}", tables.origin, tables.lids.lmc, tables.lids.max_lid,
                            describe(offsets));
  data.warnings = tables.warnings;
  if (full_fat_tree(detection)) data.oblivious_ratio = contention.worst_case;
  return audit_html(data);
}

// The --pattern options on the audited tables, with the same offsets.
Result<std::vector<PatternStats>> evaluate_patterns(const Fabric& fabric, const Detection& detection,
                                                    const Tables& tables, const OffsetChoice& offsets,
                                                    const AuditOptions& options) {
  std::vector<PatternStats> out;
  LoadPlan plan({fabric, tables.lids, tables.lfts, offsets});
  for (const std::string& text : options.patterns) {
    Result<PatternSpec> pattern = parse_pattern(text);
    if (!pattern.ok()) return pattern.status();
    Result<PatternStats> stats = evaluate_pattern(plan, detection.levels, optu_basis(detection), *pattern,
                                                  {options.instances, options.seed});
    if (!stats.ok()) return stats.status();
    out.push_back(std::move(*stats));
  }
  return out;
}

Status check_options(const AuditOptions& options) {
  if (options.scheme.empty() == options.lft_files.empty())
    return Status::Error("give either LFT files or --scheme NAME");
  if (!options.scheme.empty() && !options.guid2lid.empty())
    return Status::Error("--guid2lid reads LIDs for LFT files; --scheme assigns its own");
  return Status::Ok();
}

// Runs the whole audit; returns the exit code.
int run(const AuditOptions& options) {
  Progress progress;
  if (Status status = check_options(options); !status.ok()) {
    fmt::print(stderr, "ftclos audit: {}\n", status.message());
    return 2;
  }
  Result<Fabric> fabric = read_netfile(options.topology);
  if (!fabric.ok()) {
    fmt::print(stderr, "ftclos audit: {}\n", fabric.status().message());
    return 2;
  }
  const Detection detection = detect(*fabric);
  Result<Tables> tables = options.scheme.empty() ? tables_from_files(*fabric, options, progress)
                                                 : tables_from_scheme(*fabric, detection, options);
  if (!tables.ok()) {
    fmt::print(stderr, "ftclos audit: {}\n", tables.status().message());
    return 2;
  }
  Result<OffsetChoice> offsets = offsets_for(*fabric, options, *tables);
  if (!offsets.ok()) {
    fmt::print(stderr, "ftclos audit: {}\n", offsets.status().message());
    return 2;
  }
  progress.stage(fmt::format("tables ready ({}); checking every CA pair", tables->origin));
  const AuditInput input{*fabric, detection.levels, tables->lids, tables->lfts, *offsets, tables->dest_sl, {}};
  const Correctness correctness = check_correctness(input);
  progress.stage("correctness done; computing the worst-case contention");
  const Contention contention = worst_case_contention(input);
  progress.stage("contention done");

  print_summary(*fabric, detection, *tables, *offsets, correctness, contention);
  Result<std::vector<PatternStats>> patterns = evaluate_patterns(*fabric, detection, *tables, *offsets, options);
  if (!patterns.ok()) {
    fmt::print(stderr, "ftclos audit: {}\n", patterns.status().message());
    return 2;
  }
  if (!patterns->empty()) {
    fmt::print("traffic patterns ({}):\n{}", optu_basis(detection) == OptuBasis::kBaseload
                                                 ? "OPTU = baseload, Corollary 1"
                                                 : "OPTU bounded below by baseload and sub-tree cuts; ratios are upper bounds",
               pattern_table_header());
    for (const PatternStats& stats : *patterns) fmt::print("{}", pattern_table_row(tables_label(options), stats));
  }
  if (!options.json.empty()) {
    std::ofstream out(options.json);
    if (!(out << audit_json(*fabric, detection, options, *tables, *offsets, correctness, contention, *patterns).dump(2) << "\n")) {
      fmt::print(stderr, "ftclos audit: cannot write {}\n", options.json);
      return 2;
    }
  }
  if (!options.html.empty()) {
    std::ofstream out(options.html);
    if (!(out << audit_page(*fabric, detection, options, *tables, *offsets, correctness, contention, *patterns))) {
      fmt::print(stderr, "ftclos audit: cannot write {}\n", options.html);
      return 2;
    }
  }
  const bool sound = correctness.unreachable == 0 && correctness.loops == 0 && correctness.credit_loops == 0;
  return sound ? 0 : 1;
}

}  // namespace

void add_audit(CLI::App& app) {
  auto options = std::make_shared<AuditOptions>();
  CLI::App* sub = app.add_subcommand(
      "audit", "Audit forwarding tables: reachability, loops, credit loops, worst-case contention");
  sub->add_option("TOPO", options->topology, "Fabric in ibnetdiscover / ibsim net-file format")->required();
  sub->add_option("LFT", options->lft_files,
                  "opensm-lfts.dump or ibroute / dump_lfts output (format detected per block; several allowed)");
  CLI::Option* path_bits = sub->add_option("--pathbits", options->path_bits,
                                           "Sources use the offsets of this `0x<port GUID> <bits>` file");
  CLI::Option* offset = sub->add_option("--offset", options->offset, "Every source uses this offset (default 0)")
                            ->check(CLI::Range(0, 127));
  CLI::Option* all_offsets =
      sub->add_flag("--all-offsets", options->all_offsets, "Every source splits its traffic over all 2^LMC offsets");
  path_bits->excludes(offset)->excludes(all_offsets);
  offset->excludes(all_offsets);
  sub->add_option("--guid2lid", options->guid2lid, "OpenSM's guid2lid or opensm-subnet.lst: the LIDs to check against");
  sub->add_option("--json", options->json, "Also write the results as JSON to this file");
  sub->add_option("--html", options->html, "Also write a self-contained HTML report (heatmaps, histograms) to this file");
  CLI::Option* scheme =
      sub->add_option("--scheme", options->scheme, "Instead of LFT files, route the topology with this scheme");
  sub->add_option("--lmc", options->lmc, "LMC for --scheme (default 0)")->check(CLI::Range(0, 7))->needs(scheme);
  sub->add_option("--pattern", options->patterns,
                  "Also load the tables with traffic pattern NAME[:params] (repeatable; names as in `ftclos patterns`)");
  sub->add_option("--instances", options->instances, "Instances per random pattern (default 32)");
  sub->add_option("--seed", options->seed, "Seed of the random patterns (default 1)");
  sub->callback([options, offset] {
    options->offset_given = offset->count() > 0;
    set_exit_code(run(*options));
  });
}

}  // namespace ftclos::cli
