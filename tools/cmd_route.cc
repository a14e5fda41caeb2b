// `ftclos route TOPO [--scheme NAME] [--lmc L | --guid2lid FILE | --previous OLD.dump]
// [--repair-polish-work N] [-o DUMP] [--pathbits FILE] [--sl FILE] [--vls N] [--allow-unreachable]`: route a fabric and write its LFTs as an
// opensm-lfts.dump (OpenSM's `file` routing engine loads it); with OpenSM's
// guid2lid, byte for byte the dump OpenSM writes for the same tables. Tables that
// leave a CA pair undelivered are not written (exit 1) unless
// --allow-unreachable. --previous keeps what is still valid of earlier tables,
// on their LIDs (repair), or with --rebalance writes the scheme's own tables;
// either way it reports both: entries changed and worst-case contention;
// its contention polish stops at --repair-polish-work, as the plugin's does
// after a failure.
// --stages PREFIX writes the change from --previous as steps safe in flight
// (engine/safe_steps.h); --previous-sl gives the earlier tables' SLs.
// --sl writes the SL of every (source, destination) pair (audit/sl_file.h);
// --vls is how many data VLs the ports offer (layered's budget). The
// summary goes to stderr so the dump can go to stdout.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "audit/audit.h"
#include "audit/lft_parse.h"
#include "audit/sl_file.h"
#include "engine/safe_steps.h"
#include "detect/summary.h"
#include "engine/route_fabric.h"
#include "engine/sweep.h"
#include "tables/lft_dump.h"
#include "tables/previous_tables.h"
#include "tables/path_bits.h"

namespace ftclos::cli {
namespace {

struct RouteOptions {
  std::string file;
  std::string scheme;
  int lmc = -1;  // -1: the topology file's
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;
  std::string output = "-";  // '-': stdout
  std::string path_bits;  // empty: not written
  std::string sl_file;    // empty: not written
  int data_vls = kDefaultDataVls;
  bool polish = true;
  long repair_polish_work = kRepairPolishWork;  // with --previous
  bool allow_unreachable = false;
  HintFiles hint_files;
  std::string previous;  // empty: route from scratch
  std::string previous_sl;  // --previous's SL file; empty: the new tables' SLs
  std::string stages;       // with `previous`: PREFIX of the safe steps' files (engine/safe_steps.h); empty: none
  bool rebalance = false;  // with `previous`: write the scheme's own tables, not the kept ones
  std::string guid2lid;  // empty: LIDs of the file, or ftclos's own
};

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void print_summary(const Sweep& sweep, const LidMap& lids, const RouteOptions& options, double total_ms) {
  const Routing& routing = sweep.routing;
  fmt::print(stderr, "family: {}\nscheme: {}\n", family_summary(sweep.detection), options.scheme);
  fmt::print(stderr, "LMC: {} given, {} needed\n", lids.lmc, routing.lmc_needed);
  if (lids.lmc < routing.lmc_needed)
    fmt::print(stderr,
               "LMC {} is less than the {} this scheme needs for its full guarantee on this fabric; "
               "the notes say what it does instead\n",
               lids.lmc, routing.lmc_needed);
  fmt::print(stderr, "entries re-routed: {}\n", routing.rerouted);
  for (const std::string& note : routing.notes) fmt::print(stderr, "note: {}\n", note);
  fmt::print(stderr, "time: {:.2f} ms ({:.2f} ms routing, {:.2f} ms checking)\n", total_ms, sweep.route_ms,
             sweep.check_ms);
}

// The sweep as the CLI runs it: every CA to every LID of every other CA, and
// switches' own routes, as the auditor walks the tables; a scheme must not
// strand a pair silently, nor leave a credit loop. The SLs reach the subnet
// only through --sl: without it the dump is all OpenSM's file engine loads,
// every packet on VL 0, so tables are checked there and auto routes on one VL.
// The CLI decides itself what an unsound result means (allow_unreachable).
SweepOptions sweep_options(const RouteOptions& options) {
  const bool with_sls = !options.sl_file.empty();
  SweepOptions out;
  out.scheme = options.scheme;
  out.data_vls = with_sls || options.scheme != "auto" ? options.data_vls : 1;
  out.polish = options.polish;
  out.repair_polish_work = options.repair_polish_work;
  out.path_bits_users = options.path_bits_users;
  out.allow_unreachable = true;
  out.keep_tables = !options.rebalance;
  out.trade_off_audit = true;
  out.check_switch_routes = true;
  out.check_on_sls = with_sls;
  out.check_non_minimal = true;
  return out;
}

// The previous tables, on the fabric as it is now: their switches that are
// gone are skipped, and every CA must still have its LIDs there.
Result<LftRead> read_previous(const Fabric& fabric, const std::string& path) {
  if (path.empty()) return LftRead{};
  Result<TextFile> text = read_text_file(path);
  if (!text.ok()) return text.status();
  Result<LftRead> read = parse_lfts(fabric, {*text}, nullptr, nullptr, true);
  if (!read.ok()) return read.status();
  for (int i = 0; i < fabric.size(); ++i)
    if (!fabric.node(i).is_switch() && read->lids.base[i] == 0)
      return Status::Error(fmt::format("{}: \"{}\" has no LID in the previous tables; route it without --previous",
                                       path, fabric.node(i).name));
  return read;
}

// The trade-off after a failure, both sides measured: repair keeps OLD's
// valid entries (fewest changes), rebalance is the scheme's own tables (its
// balance).
void print_trade_off(const Sweep& sweep, const RouteOptions& options) {
  const TradeOff& trade_off = sweep.trade_off;
  fmt::print(stderr, "repair (keep OLD's valid entries): {} entries changed from {}, worst-case contention {:g}{}\n",
             trade_off.repair_changed, options.previous, trade_off.repair_worst, sweep.kept_entries ? " (written)" : "");
  fmt::print(stderr, "rebalance (the scheme's own tables): {} entries changed, worst-case contention {:g}{}\n",
             trade_off.rebalance_changed, trade_off.rebalance_worst, sweep.kept_entries ? "" : " (written)");
  fmt::print(stderr, "entries changed from {}: {} in {} LFT blocks of {} LIDs\n", options.previous, sweep.changed,
             sweep.changed_blocks, kLftBlockLids);
}

// Runs the whole pipeline; returns the exit code.
// --previous-sl: the SLs the previous tables were published with, per LID.
Result<std::vector<uint8_t>> read_previous_sls(const Fabric& fabric, const LidMap& lids, const std::string& path) {
  if (path.empty()) return std::vector<uint8_t>{};
  Result<TextFile> file = read_text_file(path);
  if (!file.ok()) return file.status();
  Result<PathSls> sls = parse_sl_file(fabric, lids, *file);
  if (!sls.ok()) return sls.status();
  if (!sls->exceptions.empty())
    return Status::Error(fmt::format("{}: SLs per (source, destination) pair; --previous-sl takes SLs per destination",
                                     path));
  return std::move(sls->dest_sl);
}

// The outputs may not overwrite an input or each other; --previous D -o D
// (repair in place) is the one exception.
Status check_files(const RouteOptions& options) {
  const std::vector<NamedPath> outputs{
      {"-o", options.output}, {"--pathbits", options.path_bits}, {"--sl", options.sl_file}};
  std::vector<NamedPath> inputs = topology_inputs(options.file, options.hint_files);
  inputs.push_back({"--guid2lid", options.guid2lid});
  if (Status status = check_distinct_outputs(inputs, outputs); !status.ok()) return status;
  return check_distinct_outputs({{"--previous", options.previous}}, {outputs.begin() + 1, outputs.end()});
}

int run(const RouteOptions& options) {
  const Clock::time_point start = Clock::now();
  Progress progress("route");  // lines on a terminal only, so that a long route is seen working
  if (Status status = check_files(options); !status.ok()) return cli::bad_input("route", status);
  Result<Fabric> fabric = read_topology("route", options.file);
  if (!fabric.ok()) return bad_input("route", fabric.status());
  Result<HostHints> hints = read_hints("route", options.hint_files, *fabric);
  if (!hints.ok()) return bad_input("route", hints.status());
  Result<LftRead> previous = read_previous(*fabric, options.previous);
  if (!previous.ok()) return bad_input("route", previous.status());
  Result<LidMap> lids = options.previous.empty()
                            ? routing_lids(*fabric, options.guid2lid, options.lmc, "route")
                            : Result<LidMap>(std::move(previous->lids));
  if (!lids.ok()) return bad_input("route", lids.status());
  if (Result<std::unique_ptr<Scheme>> scheme = make_scheme(options.scheme); !scheme.ok())
    return bad_input("route", scheme.status());
  if (Status connected = check_connected(*fabric); !connected.ok()) {
    fmt::print(stderr, "ftclos route: {}\n", connected.message());
    return 1;
  }
  const SweepOptions sweep_opts = sweep_options(options);
  progress.stage(fmt::format("read {} nodes; recognizing, routing with {} and checking every pair", fabric->size(),
                             options.scheme));
  Result<std::vector<uint8_t>> previous_sls = read_previous_sls(*fabric, *lids, options.previous_sl);
  if (!previous_sls.ok()) return bad_input("route", previous_sls.status());
  SweepInput input{*fabric, *lids, *hints, options.previous.empty() ? nullptr : &previous->lfts};
  if (!options.previous_sl.empty()) input.previous_sl = &*previous_sls;
  const SweepOutcome outcome = run_sweep(input, sweep_opts);
  if (!outcome.ok()) {
    fmt::print(stderr, "ftclos route: {}: {}\n", options.scheme, outcome.cause);
    return 1;
  }
  const Sweep& sweep = outcome.sweep;
  if (sweep.traded) print_trade_off(sweep, options);
  const std::string reason = undelivered_reason(sweep.check, true);
  // Sound on the scheme's SLs, deadlock-prone without them: --sl is missing, not the scheme.
  const bool needs_sls = !reason.empty() && !sweep_opts.check_on_sls &&
                         std::ranges::any_of(sweep.routing.dest_sl, [](uint8_t sl) { return sl != 0; }) &&
                         undelivered_reason(check_correctness({*fabric, sweep.detection.levels, *lids,
                                                               sweep.routing.lfts, {}, sweep.routing.dest_sl, {}}),
                                            true)
                             .empty();
  if (needs_sls) {
    fmt::print(stderr,
               "ftclos route: scheme {} needs its SLs for deadlock freedom on this fabric, and without --sl the dump "
               "is all OpenSM's file engine gets, every packet on VL 0, where {}; give --sl FILE (and SL k -> VL k, "
               "qos on), or --vls 1 for tables on one VL, or --scheme auto; nothing written\n",
               options.scheme, reason);
    return 2;
  }
  if (!reason.empty()) {
    if (!options.allow_unreachable) {
      fmt::print(stderr, "ftclos route: {}; nothing written (--allow-unreachable writes them anyway)\n", reason);
      return 1;
    }
    fmt::print(stderr, "ftclos route: {}; written anyway (--allow-unreachable)\n", reason);
  }
  progress.stage("tables checked; writing");
  // The dump, path bits and SLs must agree: all are written or none.
  Outputs outputs;
  Status written = outputs.add(options.output, [&](const TextSink& sink) {
    return write_lft_dump(*fabric, *lids, sweep.routing.lfts, sink);
  });
  if (written.ok() && !options.path_bits.empty())
    written = outputs.add(options.path_bits, [&](const TextSink& sink) {
      return write_path_bits(*fabric, sweep.routing, sink);
    });
  if (written.ok() && !options.sl_file.empty())
    written = outputs.add(options.sl_file, [&](const TextSink& sink) {
      return write_sl_file(*lids, sweep.routing.dest_sl, {}, sink);
    });
  if (!options.stages.empty()) {
    const SafeSteps& steps = sweep.steps;
    if (!steps.safe()) {
      fmt::print(stderr, "ftclos route: {}; nothing written\n", steps.unsafe_pair());
      return 1;
    }
    // No entry changed: one step, the tables themselves.
    const std::vector<TableStep> unchanged{{{}, sweep.routing.dest_sl}};
    const std::vector<TableStep>& sets = steps.steps.empty() ? unchanged : steps.steps;
    for (size_t k = 0; written.ok() && k < sets.size(); ++k) {
      const std::string prefix = fmt::format("{}.{}", options.stages, k + 1);
      const Lfts tables = step_tables(sweep.routing.lfts, sets[k]);  // files: written at add()
      written = outputs.add(prefix + ".dump", [&](const TextSink& sink) {
        return write_lft_dump(*fabric, *lids, tables, sink);
      });
      if (written.ok() && !options.sl_file.empty())
        written = outputs.add(prefix + ".sl", [&](const TextSink& sink) {
          return write_sl_file(*lids, sets[k].dest_sl, {}, sink);
        });
    }
    if (written.ok())
      fmt::print(stderr, "safe steps: {} ({}.1.dump .. {}.{}.dump; every consecutive pair loop-free and "
                 "deadlock-free)\n", sets.size(), options.stages, options.stages, sets.size());
  }
  if (written.ok()) written = outputs.commit();
  if (!written.ok()) return cli::bad_input("route", written);
  print_summary(sweep, *lids, options, milliseconds_since(start));
  return 0;
}

}  // namespace

void add_route(CLI::App& app) {
  auto options = std::make_shared<RouteOptions>();
  CLI::App* sub = app.add_subcommand("route", "Route a fabric and write its LFTs as an opensm-lfts.dump");
  add_topology(*sub, options->file);
  add_scheme(*sub, options->scheme, "Routing scheme");
  add_lmc(*sub, options->lmc, "LMC the subnet runs with (default: the topology file's, else 0)");
  add_path_bits_users(*sub, options->path_bits_users);
  add_host_hints(*sub, options->hint_files);
  sub->add_option("-o,--output", options->output, "Dump file to write ('-', the default: stdout)");
  sub->add_option("--pathbits", options->path_bits, "Also write every CA's path bits to this file");
  sub->add_option("--sl", options->sl_file,
                  "Also write the SL of every (source LID, destination LID) to this file (for `ftclos audit --sl`)");
  sub->add_option("--vls", options->data_vls,
                  fmt::format("Data VLs every port offers (VLCap): the SLs a layered routing may use (default {})",
                              kDefaultDataVls))
      ->check(CLI::Range(1, 15));
  sub->add_flag("!--no-polish", options->polish,
                "Leave updown's (and degraded dmodk's) tables as routed: no contention polish on small fabrics");
  sub->add_option("--previous", options->previous,
                  "Keep every entry of these earlier tables (opensm-lfts.dump) that is still valid; their LIDs and "
                  "LMC are used")
      ->excludes(sub->get_option("--lmc"));
  sub->add_option("--repair-polish-work", options->repair_polish_work,
                  fmt::format("With --previous: the contention polish's work budget, as the plugin's "
                              "repair_polish_work (default {}; {} without --previous)",
                              kRepairPolishWork, kFullPolishWork))
      ->check(CLI::Range(0L, kFullPolishWork))
      ->needs(sub->get_option("--previous"));
  sub->add_option("--previous-sl", options->previous_sl,
                  "With --previous: the SL file of the earlier tables (default: the new ones' SLs)")
      ->needs(sub->get_option("--previous"));
  sub->add_option("--stages", options->stages,
                  "With --previous: also write the change as steps safe in flight, PREFIX.1.dump .. PREFIX.N.dump (and "
                  "PREFIX.K.sl with --sl), the last equal to -o; every consecutive pair loop-free and deadlock-free "
                  "(exit 1, nothing written, where they are not)")
      ->needs(sub->get_option("--previous"));
  sub->add_flag("--rebalance", options->rebalance,
                "With --previous: write the scheme's own tables (best worst case) instead of the kept ones (fewest "
                "changes); both are reported")
      ->needs(sub->get_option("--previous"));
  add_guid2lid(*sub, options->guid2lid, sub->get_option("--lmc"))->excludes(sub->get_option("--previous"));
  sub->add_flag("--allow-unreachable", options->allow_unreachable,
                "Write the tables even when they leave CA pairs unreachable or have credit loops (exit 0; the "
                "count is printed)");
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
