// One routing sweep, as the OpenSM plugin and `ftclos route` both run it
// (OpenSM's osm_ucast_mgr_process runs every engine's sweep the same way):
// recognize the fabric (detect), route it with the configured scheme, keep
// the last tables' entries that are still valid (tables/previous_tables.h)
// when the merged tables pass the check, check (the auditor's
// check_correctness), and say so in one summary line. The callers only
// convert: the plugin its C struct (engine/subnet_fabric.h) and OpenSM's log,
// the CLI its files and its stderr lines.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "core/fabric.h"
#include "detect/detect.h"
#include "detect/host_hints.h"
#include "engine/safe_steps.h"
#include "engine/sweep_memory.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

/// The numbers of the plugin's ERR lines (plugin/README.md lists them).
enum class SweepError {
  kNone = 0,
  kBadOptions = 1,
  kBadSubnet,
  kCannotRoute,
  kLmcRefused,
  kLmcShort,
  kUnreachableRefused,
  kUnreachableAllowed,
  kCreditLoops,
  kPathBitsUnwritten,
  kInternal,
  kBadHints = 13,
  kMcastUnordered = 15,
  kMcastTree,
  kUnsafeChange,
  kReportUnwritten,
};

/// "ERR nn: what", the form operators grep OpenSM's log for.
std::string numbered(SweepError error, std::string_view what);

/// The levels of OpenSM's log the plugin writes to.
enum class SweepLevel { kError, kInfo, kVerbose };
using SweepLog = std::function<void(SweepLevel level, const std::string& line)>;

/// SweepOptions::repair_polish_work's default: a few ms of polish after a failure.
inline constexpr long kRepairPolishWork = 250'000;

/// The same fabric routed from scratch with the full polish after the sweep
/// that published its repair (engine/deferred_polish.h), and both worst cases.
struct PolishedTables {
  Routing routing;
  Correctness check;           // of `routing`: sound, or it would not be offered
  double worst = 0;            // routing_worst_case of `routing`
  double published_worst = 0;  // and of the tables published when the polish began
};

struct SweepOptions {
  std::string scheme = "auto";
  int data_vls = kDefaultDataVls;  // the VLs the ports offer: the SLs a scheme may use
  bool polish = true;              // RoutingInput::polish
  // Repair first, polish later: a sweep with previous tables polishes within
  // this work budget (RoutingInput::polish_work; ~12 ms per million on the
  // 2 cores measured), a sweep from scratch within kFullPolishWork. Where it
  // stops short, the plugin polishes the fabric to the full budget after the
  // sweep (engine/deferred_polish.h) and a later sweep installs that.
  long repair_polish_work = kRepairPolishWork;
  const std::atomic<bool>* cancel = nullptr;  // RoutingInput::cancel
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;  // RoutingInput::path_bits_users
  bool refuse_low_lmc = false;     // fail when the LMC is below the scheme's lmc_needed
  bool allow_unreachable = false;  // undelivered CA routes fail the sweep unless allowed
  bool keep_tables = true;         // with previous tables: keep their valid entries when the result is sound
  bool trade_off_audit = false;    // with previous tables: measure both sides' worst-case contention
  // What the check counts as undelivered, beside CA routes: switches' own
  // routes (PMA) too. Whether it walks the scheme's SLs, or every packet on
  // VL 0 (the dump alone, as OpenSM's file engine loads it). Whether it also
  // counts non-minimal routes (a BFS per leaf; their examples come before
  // credit loops' and switch routes').
  bool check_switch_routes = false;
  bool check_on_sls = true;
  bool check_non_minimal = false;
  int threads = 1;  // for the summary line: what the caller set core/workers.h to
};

struct SweepInput {
  const Fabric& fabric;
  const LidMap& lids;
  const HostHints& hints;
  const Lfts* previous = nullptr;  // the last tables, indexed like `fabric`, on `lids`; nullptr: none
  bool repaired = false;           // `fabric` has a cable the last tables' fabric lacked: route anew
  double read_ms = 0;              // the caller's time reading the fabric, counted as recognition
  // The deferred polish of this very fabric and LIDs, with `previous` its
  // published tables: installed when its worst case is lower.
  const PolishedTables* polished = nullptr;
  // The SLs `previous` was published with (per LID); nullptr: the new ones.
  const std::vector<uint8_t>* previous_sl = nullptr;
  // What the last sweep kept for this one (engine/sweep_memory.h), handed
  // in with the tables it describes as `previous`, or empty; the sweep
  // leaves it describing its own tables, or empty (a failed sweep, tables
  // with a credit loop). nullptr: none kept (the CLI's one sweep).
  SweepMemory* memory = nullptr;
};

/// The most CAs a sweep measures its worst cases per consumer and its
/// credit loops with switches' own routes for: exact audits, seconds on FT(36,3).
inline constexpr long kConsumerFiguresCas = 1024;

/// What a sweep measures of its tables beyond the check (checking time), up
/// to kConsumerFiguresCas CAs: the worst-case contention per consumer (at
/// LMC 0 all three the one figure) and the credit loops once switches' own
/// routes join the CAs'.
struct SweepFigures {
  ConsumerFigures consumers;
  int switch_credit_loops = 0;
};

/// Repair against rebalance after a failure: the previous tables' still-valid
/// entries kept (fewest changes) or the scheme's own tables (its balance);
/// `ftclos route --previous` prints both sides and the plugin logs them.
struct TradeOff {
  long repair_changed = 0;  // entries that differ from the previous tables
  long rebalance_changed = 0;
  double repair_worst = -1;  // exact worst-case contention (SweepOptions::trade_off_audit); -1 when not measured
  double rebalance_worst = -1;
};

/// What one sweep learned; `routing` holds the tables to publish.
struct Sweep {
  Detection detection;
  Routing routing;
  Correctness check;                 // of `routing`
  bool kept_entries = false;         // the last tables' valid entries were kept
  long repaired_lids = -1;           // the LIDs that crossed the failure, the only ones routed again; -1: routed in full
  bool checked_repaired_only = false;  // the check read only those LIDs, with SweepInput::memory
  bool steps_from_memory = false;      // the steps' transition base came from SweepInput::memory's counts
  bool traded = false;               // `trade_off` was measured (previous tables given, not a repair)
  TradeOff trade_off;
  bool polished = false;             // SweepInput::polished was installed
  bool polish_deferred = false;      // the polish stopped at repair_polish_work: a full one may do better
  long changed = -1;                 // entries that differ from the previous tables; -1: none given
  long changed_blocks = -1;          // 64-LID LFT blocks holding them (what OpenSM sends); -1: none given
  // The change from `previous` in steps safe in flight (engine/safe_steps.h),
  // the last `routing.lfts`; empty without previous tables.
  SafeSteps steps;
  std::optional<SweepFigures> figures;  // of `routing`; none above kConsumerFiguresCas CAs or for a failed sweep
  double recognize_ms = 0, route_ms = 0, check_ms = 0;
};

struct SweepOutcome {
  Sweep sweep;
  SweepError error = SweepError::kNone;  // kNone: `sweep.routing` may be installed
  std::string message;                   // the error's line, without its number
  std::string cause;                     // what failed, in the scheme's or the check's words

  bool ok() const { return error == SweepError::kNone; }
};

/// Runs the sweep; `log` (may be empty) gets the details as they come and
/// the one INFO summary line. A scheme that cannot route the fabric, an LMC
/// refused, or undelivered routes refused end it with the error set.
SweepOutcome run_sweep(const SweepInput& input, const SweepOptions& options, const SweepLog& log = {});

/// Why `check` is not sound ("" when it is): undelivered routes (switch
/// routes with `switch_routes`) or credit loops, with an example.
std::string undelivered_reason(const Correctness& check, bool switch_routes);

}  // namespace ftclos
