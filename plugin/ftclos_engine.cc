// The C boundary of ftclos_engine.h. A sweep is five steps: recognize (the
// subnet as a lib Fabric with OpenSM's LIDs, route/subnet_fabric.h, and
// detect()), route (the configured scheme), keep (the last sweep's entries
// that are still valid, route/previous_tables.h, when the merged tables pass
// the check), check (the auditor's check_correctness) and publish (keep the
// tables for the C side and, by GUID, for the next sweep; the SLs for
// path_sl; write the path bits). One INFO line per sweep has the figures;
// the details go to VERBOSE; every error line has its number (ERR nn,
// plugin/README.md). Every entry point catches everything (leveldb's db/c.cc
// style); nothing throws into C.
#include "ftclos_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/audit.h"
#include "audit/trade_off.h"
#include "audit/worst_case.h"
#include "core/files.h"
#include "core/workers.h"
#include "detect/detect.h"
#include "detect/host_hints.h"
#include "detect/summary.h"
#include "route/engine_options.h"
#include "route/mcast_tree.h"
#include "route/path_bits.h"
#include "route/previous_tables.h"
#include "route/routing.h"
#include "route/subnet_fabric.h"
#include "route/tables_by_guid.h"

namespace {

using ftclos::Result;
using ftclos::Status;
using Clock = std::chrono::steady_clock;

// The error numbers of plugin/README.md.
enum Err { kBadOptions = 1, kBadSubnet, kCannotRoute, kLmcRefused, kLmcShort, kUnreachableRefused,
           kUnreachableAllowed, kCreditLoops, kPathBitsUnwritten, kInternal, kBadHints = 13, kMcastUnordered = 15,
           kMcastTree };

std::string err(Err number, std::string_view what) { return fmt::format("ERR {:02d}: {}", static_cast<int>(number), what); }

// A failure with the errno-style code the C caller gets.
struct Failure {
  int code;
  std::string message;
};

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What one sweep learned, step by step, for the INFO line.
struct Sweep {
  ftclos::SubnetFabric subnet;
  ftclos::Detection detection;
  ftclos::Routing routing;
  ftclos::Correctness check;
  bool checked = false;         // `check` is for `routing`
  bool kept_entries = false;    // the last sweep's valid entries were kept
  bool repaired = false;        // a switch port is cabled that was not in the last sweep
  long changed = -1;            // entries that differ from the last sweep's; -1: no last sweep
  double recognize_ms = 0, route_ms = 0, check_ms = 0;
};

bool sound(const ftclos::Correctness& check) {
  return check.unreachable == 0 && check.loops == 0 && check.credit_loops == 0;
}

}  // namespace

struct ftclos_engine {
  ftclos_log_fn log_fn = nullptr;
  void* log_ctx = nullptr;
  Result<ftclos::EngineOptions> options = ftclos::EngineOptions{};

  // The last routing, for the C side to copy and for path_sl.
  std::vector<int> switch_of;
  ftclos::Lfts lfts;
  // The last routing's fabric and its unicast order, for multicast trees;
  // members come by port GUID (OpenSM renumbers nothing between the two calls,
  // but GUIDs need no node order).
  ftclos::Fabric fabric;
  ftclos::SwitchOrder order;
  std::unordered_map<uint64_t, ftclos::PortRef> port_by_guid;
  // The last routing by GUID, for the next sweep's keep step (node order and LIDs may change).
  ftclos::TablesByGuid kept;
  std::mutex sl_mutex;
  std::shared_ptr<const std::vector<uint8_t>> dest_sl;  // guarded by sl_mutex
  unsigned sl_count = 1;  // 1 + the highest SL in dest_sl, for update_sl2vl's every port pair; guarded by sl_mutex
  int threads = 1;  // the threads of the current sweep, for its INFO line

  void log(int level, const std::string& line) const {
    if (log_fn) log_fn(log_ctx, level, line.c_str());
  }

  void set_sls(std::shared_ptr<const std::vector<uint8_t>> sls) {
    const unsigned count = sls && !sls->empty() ? 1u + *std::ranges::max_element(*sls) : 1u;
    std::lock_guard<std::mutex> lock(sl_mutex);
    dest_sl = std::move(sls);
    sl_count = count;
  }

  // After a failure OpenSM installs another engine's tables: ours are no longer the last ones.
  void clear() {
    switch_of.clear();
    lfts = {};
    kept = {};
    fabric = {};
    order = {};
    port_by_guid.clear();
    set_sls(nullptr);
  }

  // The tree of one group; 0, 1 (fallback tree) or a negative errno value.
  int mcast_tree(uint16_t mlid, const uint64_t* guids, size_t count, std::vector<ftclos_mcast_port>& out,
                 Failure& failure) const {
    if (port_by_guid.empty()) {
      failure = {-ENOENT, err(kMcastTree, fmt::format("MLID 0x{:04X}: no ftclos routing to build a tree on", mlid))};
      return failure.code;
    }
    std::vector<ftclos::PortRef> members;
    for (size_t i = 0; i < count; ++i) {
      const auto found = port_by_guid.find(guids[i]);
      if (found == port_by_guid.end()) {
        failure = {-ENOENT, err(kMcastTree, fmt::format("MLID 0x{:04X}: member port {} is not in the routed fabric",
                                                        mlid, ftclos::format_guid(guids[i])))};
        return failure.code;
      }
      if (std::ranges::find(members, found->second) == members.end()) members.push_back(found->second);
    }
    Result<ftclos::McastTree> tree = ftclos::build_mcast_tree(fabric, order, members, mlid);
    int rc = 0;
    if (!tree.ok()) {
      const std::string why = tree.status().message();
      tree = ftclos::build_shortest_path_tree(fabric, members, mlid);
      if (!tree.ok()) {
        failure = {-EHOSTUNREACH, err(kMcastTree, tree.status().message())};
        return failure.code;
      }
      failure = {1, err(kMcastUnordered, why + "; a shortest-path tree instead, which may close credit loops with "
                                               "unicast traffic on its VL")};
      rc = 1;
    }
    int switches = 0;
    for (int x = 0; x < fabric.size(); ++x) {
      switches += !tree->forwarding.ports[x].empty();
      for (const uint8_t port : tree->forwarding.ports[x]) out.push_back({fabric.node(x).guid, port});
    }
    log(FTCLOS_LOG_VERBOSE, fmt::format("MLID 0x{:04X}: {} member ports, tree of {} switches rooted at {}, depth {}{}",
                                        mlid, members.size(), switches, fabric.node(tree->root).display_name(),
                                        tree->depth, tree->ordered ? ", down the unicast order" : ""));
    return rc;
  }

  // Returns 0 or the failure's code; logs what it found and decided.
  int route(const ftclos_subnet& subnet, const char* dump_dir, Failure& failure) {
    const Clock::time_point start = Clock::now();
    // The SLs of the last routing stay until the new ones are ready: path_sl
    // never sees a half-built state.
    switch_of.clear();
    lfts = {};
    if (!options.ok()) {
      failure = {-EINVAL, err(kBadOptions, "bad event_plugin_options: " + options.status().message())};
      return failure.code;
    }
    // Routing and the check split their work over these threads; any count gives the same tables and figures.
    threads = ftclos::sweep_threads(*options);
    ftclos::set_max_workers(threads);
    Sweep sweep;
    if (!recognize(subnet, sweep, failure) || !route_tables(subnet, sweep, failure)) return failure.code;
    keep_valid_entries(sweep);
    if (!check(sweep, failure)) return failure.code;
    log(FTCLOS_LOG_INFO, summary(sweep, subnet.lmc, ms_since(start)));
    return publish(sweep, dump_dir, failure);
  }

 private:
  // Each step returns false with `failure` set when the sweep must stop.
  bool recognize(const ftclos_subnet& subnet, Sweep& sweep, Failure& failure) {
    const Clock::time_point start = Clock::now();
    Result<ftclos::SubnetFabric> read = ftclos::fabric_from_subnet(subnet);
    if (!read.ok()) {
      failure = {-EPROTO, err(kBadSubnet, "cannot read the subnet: " + read.status().message())};
      return false;
    }
    sweep.subnet = std::move(*read);
    Result<ftclos::ReadHints> hints = ftclos::read_host_hints(options->hint_files, sweep.subnet.fabric);
    if (!hints.ok()) {
      failure = {-EINVAL, err(kBadHints, "cannot use a hint file: " + hints.status().message())};
      return false;
    }
    for (const std::string& warning : hints->warnings) log(FTCLOS_LOG_INFO, "hint file: " + warning);
    sweep.detection = ftclos::detect(sweep.subnet.fabric, hints->hints);
    sweep.recognize_ms = ms_since(start);
    if (sweep.subnet.unrouted_ports > 0)
      log(FTCLOS_LOG_VERBOSE, fmt::format("{} end ports with LIDs have no cable; their LIDs get no route",
                                          sweep.subnet.unrouted_ports));
    std::istringstream lines(ftclos::detection_summary(sweep.subnet.fabric, sweep.detection));
    for (std::string line; std::getline(lines, line);) log(FTCLOS_LOG_VERBOSE, line);
    return true;
  }

  bool route_tables(const ftclos_subnet& subnet, Sweep& sweep, Failure& failure) {
    const int lmc = subnet.lmc;
    const Clock::time_point start = Clock::now();
    std::unique_ptr<ftclos::Scheme> scheme = std::move(*ftclos::make_scheme(options->scheme));  // checked by parse_options
    // auto passes over tables that fail the check; the last check it ran is
    // the chosen tables' when it keeps them (Routing::checked).
    double auto_check_ms = 0;
    const ftclos::StrandCheck strands = [&](const ftclos::RoutingInput&, const ftclos::Routing& candidate) {
      const Clock::time_point check_start = Clock::now();
      sweep.check = audit(sweep, candidate);
      auto_check_ms += ms_since(check_start);
      if (sound(sweep.check)) return std::string();
      return fmt::format("its tables leave {} of {} CA routes undelivered and have {} credit loops",
                         sweep.check.unreachable + sweep.check.loops, sweep.check.pairs, sweep.check.credit_loops);
    };
    // auto weighs layered against the up*/down* floor by their exact worst cases.
    const ftclos::WorstCaseMeasure worst_case = [&](const ftclos::RoutingInput& input, const ftclos::Routing& candidate) {
      const Clock::time_point check_start = Clock::now();
      const double worst = ftclos::exact_worst_case_measure()(input, candidate);
      auto_check_ms += ms_since(check_start);
      return worst;
    };
    const int data_vls = subnet.data_vls > 0 ? subnet.data_vls : ftclos::kDefaultDataVls;
    Result<ftclos::Routing> routing =
        scheme->route({sweep.subnet.fabric, sweep.detection, sweep.subnet.lids, &strands, &worst_case, data_vls,
                       options->polish, options->path_bits_users});
    sweep.route_ms = ms_since(start) - auto_check_ms;
    sweep.check_ms += auto_check_ms;
    if (!routing.ok()) {
      failure = {-EHOSTUNREACH, err(kCannotRoute, fmt::format("scheme {} cannot route this fabric: {}",
                                                              options->scheme, routing.status().message()))};
      return false;
    }
    sweep.routing = std::move(*routing);
    sweep.checked = sweep.routing.checked;
    for (const std::string& note : sweep.routing.notes) log(FTCLOS_LOG_VERBOSE, "note: " + note);
    if (sweep.routing.lmc_needed <= lmc) return true;
    const std::string shortfall =
        fmt::format("LMC {} is less than the {} scheme {} needs for its full guarantee on this fabric", lmc,
                    sweep.routing.lmc_needed, options->scheme);
    if (options->refuse_low_lmc) {
      failure = {-ERANGE, err(kLmcRefused, shortfall + " (lmc_shortfall=refuse)")};
      return false;
    }
    log(FTCLOS_LOG_ERROR, err(kLmcShort, shortfall + "; routing anyway (lmc_shortfall=warn)"));
    return true;
  }

  // Every CA to every LID of every other CA, every offset, as the auditor
  // walks it; path lengths are not counted (nothing here reports them).
  static ftclos::Correctness audit(const Sweep& sweep, const ftclos::Routing& routing) {
    ftclos::AuditInput input{sweep.subnet.fabric, sweep.detection.levels, sweep.subnet.lids, routing.lfts, {},
                             routing.dest_sl, {}};
    input.count_non_minimal = false;
    return ftclos::check_correctness(input);
  }

  // Minimal churn: with keep_tables=on, after a failure, every entry of the
  // last sweep that the up/down rule still allows replaces the scheme's,
  // provided the merged tables pass the check (else the scheme's own tables
  // go on to the check). After a repair (a cable the last sweep lacked) the
  // scheme's own tables come back: kept detours would leave repaired cables
  // idle (on FT(8,3) two cables and two switches out and back raised the
  // worst-case contention from 7 to 16). Counts the entries that differ from
  // the last sweep either way, and logs both sides of the trade-off.
  void keep_valid_entries(Sweep& sweep) {
    if (kept.empty()) return;
    const Clock::time_point start = Clock::now();
    const ftclos::Lfts previous = kept.on(sweep.subnet.fabric, sweep.subnet.lids);
    sweep.repaired = kept.repaired_in(sweep.subnet.fabric);
    if (sweep.repaired) {
      sweep.changed = ftclos::changed_entries(sweep.subnet.lids, previous, sweep.routing.lfts);
    } else {
      ftclos::Routing merged = sweep.routing;
      ftclos::keep_previous({sweep.subnet.fabric, sweep.detection, sweep.subnet.lids}, previous, merged);
      const ftclos::TradeOff trade_off =
          ftclos::measure_trade_off(sweep.subnet.fabric, sweep.detection.levels, sweep.subnet.lids, previous, merged,
                                    sweep.routing, options->trade_off_audit);
      log_trade_off(trade_off);
      const bool kept_merged = options->keep_tables && adopt_if_sound(sweep, std::move(merged));
      sweep.changed = kept_merged ? trade_off.repair_changed : trade_off.rebalance_changed;
    }
    sweep.check_ms += ms_since(start);
  }

  // Installs the merged tables when they pass the check; says so.
  bool adopt_if_sound(Sweep& sweep, ftclos::Routing merged) {
    ftclos::Correctness check = audit(sweep, merged);
    if (sound(check)) {
      sweep.routing = std::move(merged);
      sweep.check = std::move(check);
      sweep.checked = sweep.kept_entries = true;
      return true;
    }
    log(FTCLOS_LOG_VERBOSE, fmt::format("the last sweep's entries kept fail the check ({} undelivered, {} credit "
                                        "loops); the scheme's own tables are used",
                                        check.unreachable + check.loops, check.credit_loops));
    return false;
  }

  // Repair (keep_tables=on: the last sweep's valid entries) against rebalance
  // (keep_tables=off: the scheme's own tables), whichever is installed, once
  // the fabric changed under the tables; what `ftclos route --previous`
  // prints. Each side's worst-case contention only with trade_off_audit=on:
  // two exact audits, seconds on FT(36,3).
  void log_trade_off(const ftclos::TradeOff& trade_off) const {
    if (trade_off.repair_changed == 0 && trade_off.rebalance_changed == 0) return;
    auto worst_case = [&](double worst) {
      return worst < 0 ? std::string() : fmt::format(", worst-case contention {:g}", worst);
    };
    log(FTCLOS_LOG_INFO, fmt::format("trade-off: repair (keep_tables=on) changes {} entries{}; rebalance "
                                     "(keep_tables=off) changes {}{}",
                                     trade_off.repair_changed, worst_case(trade_off.repair_worst),
                                     trade_off.rebalance_changed, worst_case(trade_off.rebalance_worst)));
  }

  bool check(Sweep& sweep, Failure& failure) {
    const Clock::time_point start = Clock::now();
    if (!sweep.checked) sweep.check = audit(sweep, sweep.routing);
    sweep.check_ms += ms_since(start);
    if (sweep.check.credit_loops > 0)
      log(FTCLOS_LOG_ERROR, err(kCreditLoops, fmt::format("{} credit loops in the new tables (cycles in the channel "
                                                          "dependency graph per VL); installing them all the same",
                                                          sweep.check.credit_loops)));
    const long undelivered = sweep.check.unreachable + sweep.check.loops;
    if (undelivered == 0) return true;
    std::string what = fmt::format("{} of {} CA routes do not deliver", undelivered, sweep.check.pairs);
    for (size_t i = 0; i < sweep.check.examples.size() && i < 3; ++i) what += (i ? "; " : ", e.g. ") + sweep.check.examples[i];
    if (!options->allow_unreachable) {
      failure = {-EHOSTUNREACH, err(kUnreachableRefused, fmt::format("scheme {} leaves CAs unreachable: {} "
                                                                     "(unreachable=refuse)", options->scheme, what))};
      return false;
    }
    log(FTCLOS_LOG_ERROR, err(kUnreachableAllowed, what + "; routing anyway (unreachable=allow)"));
    return true;
  }

  std::string summary(const Sweep& sweep, int lmc, double total_ms) const {
    const ftclos::Routing& routing = sweep.routing;
    return fmt::format(
        "{}{}; scheme {}{}{}; LMC {} ({} needed); {} CA routes, {} undelivered, {} credit loops; {} switch routes (PMA), "
        "{} undelivered; {}{} entries re-routed "
        "around failures; {}; {:.1f} ms ({:.1f} recognition, {:.1f} routing, {:.1f} checking; {} threads)",
        ftclos::family_summary(sweep.detection),
        sweep.detection.degraded() ? fmt::format(": {} deviations", sweep.detection.deviations().size()) : "",
        options->scheme, routing.chosen.empty() ? "" : fmt::format(" chose {}", routing.chosen), vls(routing), lmc,
        routing.lmc_needed, sweep.check.pairs, sweep.check.unreachable + sweep.check.loops, sweep.check.credit_loops,
        sweep.check.switch_pairs, sweep.check.switch_unreachable, by_consumer(sweep, lmc), routing.rerouted, churn(sweep), total_ms, sweep.recognize_ms, sweep.route_ms, sweep.check_ms, threads);
  }

  void keep_for_multicast(const Sweep& sweep) {
    fabric = sweep.subnet.fabric;
    const std::string_view scheme = sweep.routing.chosen.empty() ? std::string_view(options->scheme) : sweep.routing.chosen;
    order = ftclos::unicast_order(fabric, sweep.detection, scheme);
    port_by_guid = ftclos::index_port_guids(fabric);
  }

  // At LMC > 0, the worst case of hosts on offset 0 (the SA's first
  // PathRecord: rdmacm, default UCX and MPI) and on their path bits.
  static std::string by_consumer(const Sweep& sweep, int lmc) {
    if (lmc == 0) return "";
    const ftclos::Fabric& fabric = sweep.subnet.fabric;
    const ftclos::Levels& levels = sweep.detection.levels;
    return fmt::format("worst case offset 0 {:g}, path bits {:g}; ",
                       ftclos::offset_zero_worst_case(fabric, levels, sweep.subnet.lids, sweep.routing),
                       ftclos::routing_worst_case(fabric, levels, sweep.subnet.lids, sweep.routing));
  }

  // The VLs the routing's SLs take (SL k on VL k), where it uses more than one.
  static std::string vls(const ftclos::Routing& routing) {
    if (routing.dest_sl.empty()) return "";
    return fmt::format(" on {} VLs", 1 + *std::ranges::max_element(routing.dest_sl));
  }

  std::string churn(const Sweep& sweep) const {
    if (sweep.changed < 0) return "no last sweep to compare with";
    const char* why = sweep.kept_entries          ? "its valid entries kept"
                      : !options->keep_tables       ? "from scratch, keep_tables=off"
                      : sweep.repaired              ? "a repair: the scheme's own tables"
                                                    : "kept entries failed the check: from scratch";
    return fmt::format("{} entries changed since the last sweep ({})", sweep.changed, why);
  }

  int publish(Sweep& sweep, const char* dump_dir, Failure& failure) {
    kept = ftclos::TablesByGuid(sweep.subnet.fabric, sweep.subnet.lids, sweep.routing.lfts);
    keep_for_multicast(sweep);
    switch_of = std::move(sweep.subnet.switch_of);
    lfts = std::move(sweep.routing.lfts);
    if (sweep.routing.dest_sl.empty()) {
      set_sls(nullptr);
    } else {
      set_sls(std::make_shared<const std::vector<uint8_t>>(std::move(sweep.routing.dest_sl)));
      log(FTCLOS_LOG_VERBOSE, "path SLs: SL per destination LID, answered in PathRecords");
    }
    if (options->path_bits_file.empty()) return 0;
    std::filesystem::path path(options->path_bits_file);
    if (path.is_relative() && dump_dir && *dump_dir) path = dump_dir / path;
    if (Status status = ftclos::write_file(path, [&](const ftclos::TextSink& sink) {
          return ftclos::write_path_bits(sweep.subnet.fabric, sweep.routing, sink);
        });
        !status.ok()) {
      failure = {-EIO, err(kPathBitsUnwritten, status.message())};
      return failure.code;
    }
    log(FTCLOS_LOG_VERBOSE, fmt::format("path bits written to {}", path.string()));
    return 0;
  }
};

namespace {

void save_error(char** errptr, const std::string& message) {
  if (!errptr) return;
  std::free(*errptr);
  *errptr = strdup(message.c_str());
}

// Runs `body` and turns any exception into an errno code and message.
template <class Body>
int guarded(char** errptr, Body&& body) {
  try {
    Failure failure{0, {}};
    const int rc = body(failure);
    if (rc != 0) save_error(errptr, failure.message);
    return rc;
  } catch (const std::bad_alloc&) {
    save_error(errptr, err(kInternal, "out of memory"));
    return -ENOMEM;
  } catch (const std::exception& e) {
    save_error(errptr, err(kInternal, std::string("internal error: ") + e.what()));
    return -EFAULT;
  } catch (...) {
    save_error(errptr, err(kInternal, "internal error"));
    return -EFAULT;
  }
}

}  // namespace

extern "C" {

struct ftclos_engine* ftclos_engine_create(ftclos_log_fn log, void* log_ctx, char** errptr) {
  try {
    auto* engine = new ftclos_engine;
    engine->log_fn = log;
    engine->log_ctx = log_ctx;
    return engine;
  } catch (...) {
    save_error(errptr, err(kInternal, "out of memory"));
    errno = ENOMEM;
    return nullptr;
  }
}

void ftclos_engine_destroy(struct ftclos_engine* engine) { delete engine; }

int ftclos_engine_set_options(struct ftclos_engine* engine, const char* options, char** errptr) {
  return guarded(errptr, [&](Failure& failure) {
    engine->options = ftclos::parse_engine_options(options ? options : "");
    if (engine->options.ok()) return 0;
    failure = {-EINVAL, engine->options.status().message()};
    return failure.code;
  });
}

int ftclos_engine_route(struct ftclos_engine* engine, const struct ftclos_subnet* subnet, const char* dump_dir,
                        char** errptr) {
  const int rc = guarded(errptr, [&](Failure& failure) { return engine->route(*subnet, dump_dir, failure); });
  if (rc != 0 && rc != -EIO) {
    try {
      engine->clear();
    } catch (...) {
    }
  }
  return rc;
}

int ftclos_engine_lft(const struct ftclos_engine* engine, size_t node, const uint8_t** ports, uint16_t* max_lid) {
  if (node >= engine->switch_of.size() || engine->switch_of[node] < 0) return -ENOENT;
  const std::vector<uint8_t>& table = engine->lfts.port[engine->switch_of[node]];
  if (table.empty()) return -ENOENT;
  *ports = table.data();
  *max_lid = static_cast<uint16_t>(table.size() - 1);
  return 0;
}

uint8_t ftclos_engine_path_sl(struct ftclos_engine* engine, uint8_t hint, uint16_t /*slid*/, uint16_t dlid) {
  try {
    std::lock_guard<std::mutex> lock(engine->sl_mutex);
    if (engine->dest_sl && dlid < engine->dest_sl->size()) return (*engine->dest_sl)[dlid];
  } catch (...) {
  }
  return hint;
}

unsigned ftclos_engine_sl_count(struct ftclos_engine* engine) {
  try {
    std::lock_guard<std::mutex> lock(engine->sl_mutex);
    return engine->sl_count;
  } catch (...) {
  }
  return 1;
}

int ftclos_engine_mcast_tree(struct ftclos_engine* engine, uint16_t mlid, const uint64_t* member_guids,
                             size_t num_members, struct ftclos_mcast_port** ports, size_t* count, char** errptr) {
  *ports = nullptr;
  *count = 0;
  return guarded(errptr, [&](Failure& failure) {
    std::vector<ftclos_mcast_port> out;
    const int rc = engine->mcast_tree(mlid, member_guids, num_members, out, failure);
    if (rc < 0) return rc;
    *ports = static_cast<ftclos_mcast_port*>(std::malloc(std::max<size_t>(out.size(), 1) * sizeof(ftclos_mcast_port)));
    if (!*ports) throw std::bad_alloc();
    std::ranges::copy(out, *ports);
    *count = out.size();
    return rc;
  });
}

void ftclos_engine_clear(struct ftclos_engine* engine) {
  try {
    engine->clear();
  } catch (...) {
  }
}

void ftclos_free(void* ptr) { std::free(ptr); }

}  // extern "C"
