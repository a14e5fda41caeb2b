// `ftclos route TOPO [--scheme NAME] [--lmc L | --guid2lid FILE | --previous OLD.dump]
// [-o DUMP] [--pathbits FILE] [--sl FILE] [--vls N] [--allow-unreachable]`: route a fabric and write its LFTs as an
// opensm-lfts.dump (OpenSM's `file` routing engine loads it); with OpenSM's
// guid2lid, byte for byte the dump OpenSM writes for the same tables. Tables that
// leave a CA pair undelivered are not written (exit 1) unless
// --allow-unreachable. --previous keeps what is still valid of earlier tables,
// on their LIDs (repair), or with --rebalance writes the scheme's own tables;
// either way it reports both: entries changed and worst-case contention.
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
#include "audit/audit.h"
#include "commands.h"
#include "core/end_nodes.h"
#include "detect/summary.h"
#include "audit/lft_parse.h"
#include "audit/sl_file.h"
#include "audit/trade_off.h"
#include "audit/worst_case.h"
#include "route/lft_dump.h"
#include "route/path_bits.h"
#include "route/previous_tables.h"
#include "route/route_fabric.h"

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
  bool allow_unreachable = false;
  HintFiles hint_files;
  std::string previous;  // empty: route from scratch
  bool rebalance = false;  // with `previous`: write the scheme's own tables, not the kept ones
  std::string guid2lid;  // empty: LIDs of the file, or ftclos's own
};

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// `auto_check_ms`: the part of route_ms that auto spent checking candidates.
void print_summary(const RoutedFabric& routed, const RouteOptions& options, double total_ms, double auto_check_ms,
                   double check_ms) {
  const Routing& routing = routed.routing;
  fmt::print(stderr, "family: {}\nscheme: {}\n", family_summary(routed.detection), options.scheme);
  fmt::print(stderr, "LMC: {} given, {} needed\n", routed.lids.lmc, routing.lmc_needed);
  if (routed.lids.lmc < routing.lmc_needed)
    fmt::print(stderr,
               "LMC {} is less than the {} this scheme needs for its full guarantee on this fabric; "
               "the notes say what it does instead\n",
               routed.lids.lmc, routing.lmc_needed);
  fmt::print(stderr, "entries re-routed: {}\n", routing.rerouted);
  for (const std::string& note : routing.notes) fmt::print(stderr, "note: {}\n", note);
  // auto's checks run inside route_fabric's time: shown apart.
  fmt::print(stderr, "time: {:.2f} ms ({:.2f} ms routing, {:.2f} ms checking)\n", total_ms, routed.route_ms - auto_check_ms,
             check_ms);
}

// Every CA to every LID of every other CA, as the auditor walks the tables:
// a scheme must not strand a pair silently, nor leave a credit loop. On VL
// 0 (`with_sls` false) every packet takes VL 0, as when OpenSM's file
// engine loads the dump alone. Returns the reason, or "".
std::string undelivered(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing,
                        bool with_sls) {
  const Correctness check = check_correctness(
      {fabric, levels, lids, routing.lfts, {}, with_sls ? routing.dest_sl : std::vector<uint8_t>{}, {}});
  const long failed = check.unreachable + check.loops + check.switch_unreachable;
  if (failed == 0 && check.credit_loops == 0) return "";
  if (failed == 0) {  // deadlock-prone: a wrong answer too
    const auto loop = std::ranges::find_if(check.examples, [](const std::string& e) { return e.starts_with("credit loop"); });
    return fmt::format("the tables have {} credit loops{}", check.credit_loops,
                       loop == check.examples.end() ? "" : ", e.g. " + *loop);
  }
  const std::string switches =
      check.switch_unreachable == 0
          ? ""
          : fmt::format("; {} of {} switch routes (PMA queries and answers)", check.switch_unreachable, check.switch_pairs);
  return fmt::format("the tables leave {} of {} CA routes undelivered ({} unreachable, {} in loops){}{}",
                     check.unreachable + check.loops, check.pairs, check.unreachable, check.loops, switches,
                     check.examples.empty() ? "" : ", e.g. " + check.examples.front());
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

// The trade-off after a failure, both sides measured: `repaired` keeps OLD's
// valid entries (fewest changes), `own` is the scheme's own tables (its
// balance). Returns how many entries the side written changes.
long print_trade_off(const RoutedFabric& routed, const Fabric& fabric, const Lfts& previous, const Routing& repaired,
                     const Routing& own, const RouteOptions& options) {
  const TradeOff trade_off =
      measure_trade_off(fabric, routed.detection.levels, routed.lids, previous, repaired, own, true);
  fmt::print(stderr, "repair (keep OLD's valid entries): {} entries changed from {}, worst-case contention {:g}{}\n",
             trade_off.repair_changed, options.previous, trade_off.repair_worst, options.rebalance ? "" : " (written)");
  fmt::print(stderr, "rebalance (the scheme's own tables): {} entries changed, worst-case contention {:g}{}\n",
             trade_off.rebalance_changed, trade_off.rebalance_worst, options.rebalance ? " (written)" : "");
  return options.rebalance ? trade_off.rebalance_changed : trade_off.repair_changed;
}

// Runs the whole pipeline; returns the exit code.
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
  if (Status status = check_files(options); !status.ok()) return cli::bad_input("route", status);
  Result<Fabric> fabric = read_end_nodes(options.file);
  if (!fabric.ok()) return bad_input("route", fabric.status());
  Result<HostHints> hints = read_hints("route", options.hint_files, *fabric);
  if (!hints.ok()) return bad_input("route", hints.status());
  Result<LftRead> previous = read_previous(*fabric, options.previous);
  if (!previous.ok()) return bad_input("route", previous.status());
  Result<LidMap> lids = options.previous.empty()
                            ? routing_lids(*fabric, options.guid2lid, options.lmc, "route")
                            : Result<LidMap>(std::move(previous->lids));
  if (!lids.ok()) return bad_input("route", lids.status());
  // The SLs reach the subnet only through --sl: without it the dump is all
  // OpenSM's file engine loads, every packet on VL 0, so tables are checked
  // there and auto routes on one VL.
  const bool with_sls = !options.sl_file.empty();
  const bool choosing = options.scheme == "auto";
  bool bad_input = false;
  double auto_check_ms = 0, check_ms = 0;
  const StrandCheck strands = [&](const RoutingInput& input, const Routing& routing) {
    const Clock::time_point check_start = Clock::now();
    std::string reason = undelivered(input.fabric, input.detection.levels, input.lids, routing, with_sls);
    auto_check_ms += milliseconds_since(check_start);
    return reason;
  };
  const WorstCaseMeasure worst_case = [&](const RoutingInput& input, const Routing& routing) {
    const Clock::time_point check_start = Clock::now();
    const double worst = exact_worst_case_measure()(input, routing);
    auto_check_ms += milliseconds_since(check_start);
    return worst;
  };
  Result<RoutedFabric> routed = route_fabric(*fabric, options.scheme, std::move(*lids), *hints, &bad_input,
                                             {&strands, &worst_case, with_sls || !choosing ? options.data_vls : 1,
                                              options.polish, options.path_bits_users});
  if (!routed.ok()) {
    fmt::print(stderr, "ftclos route: {}\n", routed.status().message());
    return bad_input ? 2 : 1;
  }
  if (!options.previous.empty()) {
    const RoutingInput input{*fabric, routed->detection, routed->lids};
    Routing own = routed->routing;
    keep_previous(input, previous->lfts, routed->routing);
    const long changed = print_trade_off(*routed, *fabric, previous->lfts, routed->routing, own, options);
    if (options.rebalance) routed->routing = std::move(own);
    fmt::print(stderr, "entries changed from {}: {}\n", options.previous, changed);
  }
  // auto checked its choice already, unless --previous changed it since.
  const bool checked = routed->routing.checked && options.previous.empty();
  const Clock::time_point check_start = Clock::now();
  const std::string reason =
      checked ? "" : undelivered(*fabric, routed->detection.levels, routed->lids, routed->routing, with_sls);
  // Sound on the scheme's SLs, deadlock-prone without them: --sl is missing, not the scheme.
  const bool needs_sls = !reason.empty() && !with_sls && std::ranges::any_of(routed->routing.dest_sl, [](uint8_t sl) {
    return sl != 0;
  }) && undelivered(*fabric, routed->detection.levels, routed->lids, routed->routing, true).empty();
  check_ms = auto_check_ms + milliseconds_since(check_start);
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
  // The dump, path bits and SLs must agree: all are written or none.
  Outputs outputs;
  Status written = outputs.add(options.output, [&](const TextSink& sink) {
    return write_lft_dump(*fabric, routed->lids, routed->routing.lfts, sink);
  });
  if (written.ok() && !options.path_bits.empty())
    written = outputs.add(options.path_bits, [&](const TextSink& sink) {
      return write_path_bits(*fabric, routed->routing, sink);
    });
  if (written.ok() && !options.sl_file.empty())
    written = outputs.add(options.sl_file, [&](const TextSink& sink) {
      return write_sl_file(routed->lids, routed->routing.dest_sl, {}, sink);
    });
  if (written.ok()) written = outputs.commit();
  if (!written.ok()) return cli::bad_input("route", written);
  print_summary(*routed, options, milliseconds_since(start), auto_check_ms, check_ms);
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
