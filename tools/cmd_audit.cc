// `ftclos audit TOPO LFT... [--pathbits FILE | --offset K | --all-offsets]
// [--guid2lid FILE] [--sl FILE] [--sl2vl FILE] [--mcfdbs FILE [--mcast-sl SL]]
// [--json FILE] [--html FILE]` or
// `ftclos audit TOPO [--scheme NAME] [--lmc L]` (auto when no tables are
// given): what a set of forwarding
// tables does with every CA pair
// (reachability, loops, credit loops, up/down, minimality) and the worst
// contention a permutation can meet on them (audit.h). The tables come from
// OpenSM's opensm-lfts.dump or ibroute / dump_lfts output, or from routing
// the topology with one of our schemes, for comparison. `--compare FILE...`
// and `--schemes S,..` add more sets, each audited on its own and shown side
// by side with the first (report/compare.h). --sl and --sl2vl give the first
// set's SLs (audit/sl_file.h) and SL-to-VL tables (audit/sl2vl_file.h), so
// credit loops are checked per VL as the subnet runs them. --mcfdbs adds
// OpenSM's multicast tables (audit/mcfdbs_parse.h): every member must reach
// every other, and the trees' channel dependencies join the first set's in
// the credit-loop count (audit/mcast_check.h).
// Exit status: 0 the tables are sound, 1 unreachable pairs or (credit)
// loops in any set, 2 bad input. The summary goes to stdout (unless --json -
// takes it), progress to stderr when it is a terminal.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/mcast_check.h"
#include "audit/mcfdbs_parse.h"
#include "audit/sl2vl_file.h"
#include "audit/sl_file.h"
#include "audit/transition.h"
#include "audit/worst_case.h"
#include "audit_tables.h"
#include "cli_common.h"
#include "commands.h"
#include "detect/detect.h"
#include "report/audit_report.h"
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
  HintFiles hint_files;
  std::string sl_file;     // empty: the set's own SLs (a scheme's), else SL 0
  std::string sl2vl_file;  // empty: VL = SL
  std::string mcfdbs_file; // empty: no multicast
  int mcast_sl = 0;        // the SL of every multicast group
  bool reference = true;   // route auto too, next to tables read from files (up to kReferenceCas CAs)
  bool transition = false; // the two LFT files are the old and new tables of a change (audit/transition.h)
  std::string new_sl_file; // --transition: the new tables' SLs (--sl: the old ones')
};


// --mcfdbs, with every group on --mcast-sl.
Result<std::vector<McastForwarding>> read_mcfdbs(const Fabric& fabric, const AuditOptions& options) {
  if (options.mcfdbs_file.empty()) return std::vector<McastForwarding>{};
  Result<TextFile> file = read_text_file(options.mcfdbs_file);
  if (!file.ok()) return file.status();
  return parse_mcfdbs(fabric, *file, static_cast<uint8_t>(options.mcast_sl));
}

// --sl and --sl2vl, read against the primary set's LIDs.
Status read_sl_files(const Fabric& fabric, const AuditOptions& options, TableSet& set) {
  if (!options.sl_file.empty()) {
    Result<TextFile> file = read_text_file(options.sl_file);
    if (!file.ok()) return file.status();
    Result<PathSls> sls = parse_sl_file(fabric, set.lids, *file);
    if (!sls.ok()) return sls.status();
    set.dest_sl = std::move(sls->dest_sl);
    set.sl_exceptions = std::move(sls->exceptions);
  }
  if (!options.sl2vl_file.empty()) {
    Result<TextFile> file = read_text_file(options.sl2vl_file);
    if (!file.ok()) return file.status();
    Result<Sl2VlTables> tables = parse_sl2vl_file(fabric, set.lids, *file);
    if (!tables.ok()) return tables.status();
    set.sl2vl = std::move(*tables);
  }
  return Status::Ok();
}

bool sound(const AuditedSet& audit) {
  const Correctness& c = audit.correctness;
  const bool multicast_sound = !audit.multicast || (audit.multicast->unreached == 0 && audit.multicast->looping == 0);
  // Switches' own routes count too: a PMA query that cannot arrive, or whose
  // route closes a credit loop with the CAs' on a data VL, is a finding.
  return c.unreachable == 0 && c.loops == 0 && c.credit_loops == 0 && c.switch_unreachable == 0 &&
         c.switch_credit_loops == 0 && multicast_sound;
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
Result<AuditedSet> audit_set(const Fabric& fabric, const Detection& detection, const TableSet& set,
                             const std::vector<PatternSpec>& patterns, const AuditOptions& options,
                             const std::vector<McastForwarding>* mcast, Progress& progress) {
  progress.stage(fmt::format("tables ready ({}); checking every CA pair", set.origin));
  const AuditInput input{fabric,      detection.levels, set.lids,          set.lfts, set.offsets,
                         set.dest_sl, {},               set.sl_exceptions, set.sl2vl ? &*set.sl2vl : nullptr,
                         mcast};
  AuditedSet audit;
  audit.label = set.label;
  audit.origin = set.origin;
  audit.lmc = set.lids.lmc;
  audit.max_lid = set.lids.max_lid;
  audit.offsets = describe(set.offsets);
  audit.unknown_lids = set.unknown_lids;
  audit.warnings = set.warnings;
  audit.notes = set.notes;
  audit.correctness = check_correctness(input);
  if (mcast) audit.multicast = check_multicast(fabric, *mcast);
  progress.stage("correctness done; computing the worst-case contention");
  audit.contention = worst_case_contention(input);
  audit.lid_balance = lid_balance(fabric, detection.levels, set.lids, set.lfts);
  if (set.lids.lmc > 0) audit.consumers = consumer_figures(input, set.offsets);
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

// Above this many CAs the reference (routing and auditing auto once more)
// is left to `--schemes auto`: it would double a long audit.
constexpr long kReferenceCas = 4096;

// What ftclos's own choice meets here, for the reader to judge the tables'
// worst case: "auto chose osrm (LMC 3): 4 with hosts on their path bits, 7
// on offset 0"; nullopt where it is not computed.
struct Reference {
  std::string text;
  nlohmann::json json;
};

Reference reference_of(const Fabric& fabric, const Detection& detection, int lmc, const AuditOptions& options,
                       Progress& progress) {
  long cas = 0;
  for (int x = 0; x < fabric.size(); ++x) cas += !fabric.node(x).is_switch();
  if (cas > kReferenceCas)
    return {fmt::format("not computed ({} CAs, more than {}; `--schemes auto` computes it)", cas, kReferenceCas),
            nullptr};
  progress.stage("routing auto for reference");
  Result<TableSet> set = reference_tables(fabric, detection, lmc);
  if (!set.ok()) return {fmt::format("auto cannot route it ({})", set.status().message()), nullptr};
  Result<AuditedSet> audit = audit_set(fabric, detection, *set, {}, options, nullptr, progress);
  if (!audit.ok()) return {fmt::format("not computed ({})", audit.status().message()), nullptr};
  const double worst = audit->contention.worst_case;
  std::string figures = fmt::format("worst case {:g}", worst);
  nlohmann::json json{{"tables", set->origin}, {"worst_case_contention", worst}, {"offset0", nullptr}};
  if (audit->consumers) {
    figures = fmt::format("{:g} with hosts on their path bits, {:g} on offset 0", worst, audit->consumers->offset0);
    json["offset0"] = audit->consumers->offset0;
  }
  return {fmt::format("{}: {}", set->origin, figures), json};
}

// Every file the audit reads, for check_distinct_outputs.
std::vector<NamedPath> audit_inputs(const AuditOptions& options) {
  const TableSources& sources = options.sources;
  std::vector<NamedPath> inputs = topology_inputs(options.topology, options.hint_files);
  for (const std::string& path : sources.lft_files) inputs.push_back({"LFT", path});
  for (const std::string& path : sources.compare_files) inputs.push_back({"--compare", path});
  inputs.insert(inputs.end(), {{"--pathbits", sources.offsets.path_bits},
                               {"--guid2lid", sources.guid2lid},
                               {"--sl", options.sl_file},
                               {"--new-sl", options.new_sl_file},
                               {"--sl2vl", options.sl2vl_file},
                               {"--mcfdbs", options.mcfdbs_file}});
  return inputs;
}

Status check_transition_options(const AuditOptions& options) {
  const TableSources& sources = options.sources;
  if (sources.lft_files.size() != 2)
    return Status::Error(fmt::format("--transition takes two LFT files, the old tables and the new; got {}",
                                     sources.lft_files.size()));
  if (!sources.scheme.empty() || sources.comparing() || sources.offsets.given() || !options.patterns.empty() ||
      !options.json.empty() || !options.html.empty() || !options.sl2vl_file.empty() || !options.mcfdbs_file.empty())
    return Status::Error("--transition checks two LFT files (with --guid2lid, --sl and --new-sl) and nothing else");
  return Status::Ok();
}

Status check_options(const AuditOptions& options) {
  const TableSources& sources = options.sources;
  if (options.transition) return check_transition_options(options);
  if (!options.new_sl_file.empty()) return Status::Error("--new-sl is for --transition");
  if (Status status = check_distinct_outputs(audit_inputs(options), {{"--json", options.json}, {"--html", options.html}});
      !status.ok())
    return status;
  if ((!options.sl_file.empty() || !options.sl2vl_file.empty()) && !sources.has_primary())
    return Status::Error("--sl and --sl2vl are for the LFT files or --scheme");
  if (!options.mcfdbs_file.empty() && !sources.has_primary())
    return Status::Error("--mcfdbs is for the LFT files or --scheme");
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

// `--transition`: whether every mix of the old and new tables is loop-free
// and deadlock-free; returns the exit code (1: some mix is not).
int run_transition(const AuditOptions& options, const Fabric& fabric, const Detection& detection, Progress& progress) {
  auto bad_input = [](const Status& status) { return cli::bad_input("audit", status); };
  std::vector<TableSet> sides;
  for (const auto& [file, sl_file] : {std::pair{options.sources.lft_files[0], options.sl_file},
                                      std::pair{options.sources.lft_files[1], options.new_sl_file}}) {
    TableSources one;
    one.lft_files = {file};
    one.guid2lid = options.sources.guid2lid;
    bool bad = true;
    Result<std::vector<TableSet>> set = load_table_sets(fabric, detection, one, progress, bad);
    if (!set.ok()) return bad_input(set.status());
    AuditOptions sls;
    sls.sl_file = sl_file;
    if (Status status = read_sl_files(fabric, sls, set->front()); !status.ok()) return bad_input(status);
    sides.push_back(std::move(set->front()));
  }
  const LidMap& lids = sides[0].lids;
  if (lids.owner != sides[1].lids.owner)
    return bad_input(Status::Error(fmt::format("{} and {} give the LIDs to different ports: a change of tables keeps "
                                               "the LIDs (give both the same --guid2lid)",
                                               options.sources.lft_files[0], options.sources.lft_files[1])));
  progress.stage("both sides read; checking every mix");
  const TransitionCheck check =
      check_transition(fabric, lids, {sides[0].lfts, sides[0].dest_sl, sides[0].sl_exceptions},
                       {sides[1].lfts, sides[1].dest_sl, sides[1].sl_exceptions});
  fmt::print("transition: {} -> {}\n", sides[0].origin, sides[1].origin);
  fmt::print("LIDs: {}, entries changed: {}\n", check.lids, check.changed_entries);
  fmt::print("looping LIDs (old and new next hops in a cycle): {}\n", check.looping_lids);
  std::vector<std::string> vls;
  for (int v = 0; v < 16; ++v)
    if (check.credit_loop_vls & (1u << v)) vls.push_back(fmt::format("VL {}", v));
  fmt::print("credit loops (old and new dependencies in a cycle): {}\n", vls.empty() ? "none" : fmt::format("{}", fmt::join(vls, ", ")));
  for (const std::string& example : check.examples) fmt::print("  e.g. {}\n", example);
  fmt::print("{}\n", check.safe() ? "safe: every mix of old and new entries is loop-free and deadlock-free"
                                  : "unsafe: some mix of old and new entries loops or can deadlock");
  return check.safe() ? 0 : 1;
}

// Runs the whole audit; returns the exit code.
int run(const AuditOptions& options) {
  auto bad_input = [](const Status& status) { return cli::bad_input("audit", status); };
  Progress progress("audit");
  const TableSources& sources = options.sources;
  if (Status status = check_options(options); !status.ok()) return bad_input(status);
  Result<Fabric> fabric = read_topology("audit", options.topology);
  if (!fabric.ok()) return bad_input(fabric.status());
  Result<std::vector<PatternSpec>> patterns = parse_patterns(*fabric, options);
  if (!patterns.ok()) return bad_input(patterns.status());
  Result<HostHints> hints = read_hints("audit", options.hint_files, *fabric);
  if (!hints.ok()) return bad_input(hints.status());
  const Detection detection = detect(*fabric, *hints);
  if (options.transition) return run_transition(options, *fabric, detection, progress);
  bool sets_bad_input = true;
  Result<std::vector<TableSet>> sets = load_table_sets(*fabric, detection, sources, progress, sets_bad_input);
  if (!sets.ok() && !sets_bad_input) {  // a scheme that cannot route this fabric: a finding, as in `route`
    fmt::print(stderr, "ftclos audit: {}\n", sets.status().message());
    return 1;
  }
  if (!sets.ok()) return bad_input(sets.status());
  if (Status status = read_sl_files(*fabric, options, sets->front()); !status.ok()) return bad_input(status);
  Result<std::vector<McastForwarding>> mcast = read_mcfdbs(*fabric, options);
  if (!mcast.ok()) return bad_input(mcast.status());
  std::vector<AuditedSet> audits;
  for (const TableSet& set : *sets) {
    // The multicast tables go with the primary set: the subnet they were read from.
    const bool with_mcast = !options.mcfdbs_file.empty() && &set == &sets->front() && sources.has_primary();
    Result<AuditedSet> audit =
        audit_set(*fabric, detection, set, *patterns, options, with_mcast ? &*mcast : nullptr, progress);
    if (!audit.ok()) return bad_input(audit.status());
    audits.push_back(std::move(*audit));
  }

  const bool primary = sources.has_primary();
  std::optional<Reference> reference;
  if (options.reference && !sources.lft_files.empty() && !sources.comparing())
    reference = reference_of(*fabric, detection, sets->front().lids.lmc, options, progress);
  if (options.json != "-") {
    fmt::print("{}", primary ? audit_summary(*fabric, detection, audits.front()) : audit_fabric_line(*fabric, detection));
    if (reference) fmt::print("ftclos on this fabric: {}\n", reference->text);
    if (sources.comparing()) fmt::print("{}", comparison_summary(detection, audits, primary));
    fmt::print("{}", pattern_summary(detection, audits));
  }
  std::string json;
  if (!options.json.empty()) {
    nlohmann::json out = audit_json(*fabric, detection, options.topology, audits, primary);
    if (reference) out["reference"] = reference->json;
    json = json_text(out);
  }
  const std::string html =
      options.html.empty() ? "" : audit_page(*fabric, detection, options.topology, audits, primary);
  Outputs outputs;
  Status written = Status::Ok();
  if (!options.json.empty()) written = outputs.add(options.json, [&](const TextSink& sink) { return sink(json); });
  if (written.ok() && !options.html.empty())
    written = outputs.add(options.html, [&](const TextSink& sink) { return sink(html); });
  if (written.ok()) written = outputs.commit();
  if (!written.ok()) return bad_input(written);
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
  add_host_hints(*sub, options->hint_files);
  sub->add_option("--sl", options->sl_file,
                  "SL of every (source, destination) pair, as `ftclos route --sl` writes it: credit loops are "
                  "checked per VL (default: a scheme's own SLs, else SL 0)");
  sub->add_flag("--transition", options->transition,
                "The two LFT files are the old and new tables of a change: check that every mix of their entries "
                "(OpenSM writes them switch by switch) is loop-free and deadlock-free; exit 1 if not");
  sub->add_option("--new-sl", options->new_sl_file, "With --transition: the new tables' SL file (--sl: the old ones')");
  sub->add_option("--sl2vl", options->sl2vl_file,
                  "SL-to-VL tables of the switches as `smpquery sl2vl LID PORT` prints them, or OpenSM's "
                  "opensm-sl2vl.dump (default: VL = SL)");
  sub->add_option("--mcfdbs", options->mcfdbs_file,
                  "OpenSM's opensm.mcfdbs: check that every multicast member reaches every other, and count credit "
                  "loops of unicast and multicast together");
  sub->add_option("--mcast-sl", options->mcast_sl, "SL of the multicast groups (default 0)")->check(CLI::Range(0, 15));
  sub->add_flag("!--no-reference", options->reference,
                "Do not route auto for reference next to tables read from files (done up to 4096 CAs)");
  add_json(*sub, options->json);
  sub->add_option("--html", options->html, "Also write a self-contained HTML report (heatmaps, histograms) to this file");
  CLI::Option* scheme = add_scheme(*sub, sources.scheme, "Instead of LFT files, route the topology with this scheme");
  sub->add_option("--compare", sources.compare_files,
                  "Also audit these LFT files, one whole set each, and compare every set in one table");
  add_schemes(*sub, sources.schemes,
              "Also route the topology with these schemes (comma-separated), each on its own path bits, and compare "
              "every set in one table");
  add_lmc(*sub, sources.lmc,
          "LMC for --scheme (default: the topology file's, else 0) and --schemes (default: what each scheme needs)");
  sub->add_option("--pattern", options->patterns,
                  "Also load the tables with traffic pattern NAME[:params] (repeatable; names as in `ftclos patterns`)");
  sub->add_option("--instances", options->instances, "Instances per random pattern (default 32)")
      ->check(CLI::PositiveNumber);
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
