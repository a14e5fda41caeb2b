#include "engine/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "audit/worst_case.h"
#include "core/workers.h"
#include "detect/summary.h"
#include "paths/contention_polish.h"
#include "schemes/switch_traffic.h"
#include "tables/crossing_repair.h"
#include "tables/previous_tables.h"

namespace ftclos {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The steps of run_sweep over one input; each step returns false when the
// sweep must stop, with the outcome's error set.
class SweepRun {
 public:
  SweepRun(const SweepInput& input, const SweepOptions& options, const SweepLog& log)
      : in_(input), options_(options), log_(log) {}

  SweepOutcome run() {
    const Clock::time_point start = Clock::now();
    memory_usable_ = in_.memory && in_.previous && in_.memory->fits(in_.fabric, in_.lids);
    if (in_.memory && !memory_usable_) in_.memory->clear();
    start_counting();
    recognize();
    // A sweep that keeps the last tables' valid entries takes from the
    // scheme only the entries of those that are not, and checks the merged
    // tables whole: auto then takes the first scheme that routes, without
    // checking each candidate or weighing challengers (a full check and two
    // exact worst cases: seconds on FT(48,3)). It chooses in full only where
    // the merged tables fail the check, or nothing is kept.
    if (repair_crossing() || (route(!keeps_previous()) && keep_valid_entries())) {
      install_polished();
      count_changes();
      if (check()) {
        plan_steps();
        remember();
        measure();
        say(SweepLevel::kInfo, summary(in_.read_ms + ms_since(start)));
      }
    }
    memory_counted();
    if (in_.memory && !out_.ok()) in_.memory->clear();
    return std::move(out_);
  }

 private:
  Sweep& sweep() { return out_.sweep; }

  void say(SweepLevel level, const std::string& line) const {
    if (log_) log_(level, line);
  }

  void fail(SweepError error, std::string message, std::string cause) {
    out_.error = error;
    out_.message = std::move(message);
    out_.cause = std::move(cause);
  }

  // Every CA to every LID of every other CA, every offset, as the auditor
  // walks it (and switches' own routes); non-minimal paths only on request.
  // Credit loops with switches' own routes where those turn outside the
  // turn leaf's argument (Routing::switch_turns_layered): elsewhere there
  // are none to find, and the graph with them costs as much as the rest.
  Correctness audit(const Routing& routing) const {
    AuditInput input{in_.fabric, sweep_levels(), in_.lids, routing.lfts, {},
                     options_.check_on_sls ? routing.dest_sl : std::vector<uint8_t>{}, {}};
    input.count_non_minimal = options_.check_non_minimal;
    input.count_switch_credit_loops = routing.switch_turns_layered;
    return check_correctness(input);
  }
  const Levels& sweep_levels() const { return out_.sweep.detection.levels; }

  // The memory's tables counted beside recognition, on the core it leaves
  // idle (engine/sweep_memory.h), where the last sweep left them uncounted;
  // first, where one thread is all the sweep may use (jobs=1).
  void start_counting() {
    if (!memory_usable_ || !in_.memory->uncounted) return;
    if (worker_count(2) < 2) {
      in_.memory->count(in_.lids, *in_.previous, 1);
      return;
    }
    counting_ = std::jthread([this] {
      try {
        in_.memory->count(in_.lids, *in_.previous, 1);
      } catch (const std::exception&) {  // out of memory: the sweep goes on without
        counting_failed_ = true;
      }
    });
  }

  // Whether the memory is usable, once counted: waits for the counting.
  bool memory_counted() {
    if (counting_.joinable()) counting_.join();
    if (counting_failed_ && memory_usable_) {
      in_.memory->clear();
      memory_usable_ = false;
    }
    return memory_usable_;
  }

  std::string unsound(const Correctness& check) const {
    return undelivered_reason(check, options_.check_switch_routes);
  }

  void recognize() {
    const Clock::time_point start = Clock::now();
    sweep().detection = detect(in_.fabric, in_.hints);
    sweep().recognize_ms = in_.read_ms + ms_since(start);
    if (!log_) return;
    std::istringstream lines(detection_summary(in_.fabric, sweep().detection));
    for (std::string line; std::getline(lines, line);) say(SweepLevel::kVerbose, line);
  }

  bool route(bool full_choice) {
    const Clock::time_point start = Clock::now();
    Result<std::unique_ptr<Scheme>> scheme = make_scheme(options_.scheme);
    if (!scheme.ok()) {
      fail(SweepError::kBadOptions, scheme.status().message(), scheme.status().message());
      return false;
    }
    // auto passes over tables that fail the check; the last check it ran is
    // the chosen tables' when it keeps them (Routing::checked).
    double auto_check_ms = 0;
    const StrandCheck strands = [&](const RoutingInput&, const Routing& candidate) {
      const Clock::time_point check_start = Clock::now();
      sweep().check = audit(candidate);
      auto_check_ms += ms_since(check_start);
      return unsound(sweep().check);
    };
    // auto weighs layered against the up*/down* floor by their exact worst cases.
    const WorstCaseMeasure worst_case = [&](const RoutingInput& input, const Routing& candidate) {
      const Clock::time_point check_start = Clock::now();
      const double worst = exact_worst_case_measure()(input, candidate);
      auto_check_ms += ms_since(check_start);
      return worst;
    };
    // Repair first, polish later: with tables in the switches, a short polish.
    const long polish_work = in_.previous ? options_.repair_polish_work : kFullPolishWork;
    Result<Routing> routing = (*scheme)->route({in_.fabric, sweep().detection, in_.lids,
                                                full_choice ? &strands : nullptr, full_choice ? &worst_case : nullptr,
                                                options_.data_vls, options_.polish, options_.path_bits_users,
                                                polish_work, options_.cancel, !merges_previous()});
    sweep().route_ms += ms_since(start) - auto_check_ms;
    sweep().check_ms += auto_check_ms;
    if (!routing.ok()) {
      fail(SweepError::kCannotRoute,
           fmt::format("scheme {} cannot route this fabric: {}", options_.scheme, routing.status().message()),
           routing.status().message());
      return false;
    }
    sweep().routing = std::move(*routing);
    checked_ = sweep().routing.checked;
    for (const std::string& note : sweep().routing.notes) say(SweepLevel::kVerbose, "note: " + note);
    const int lmc = in_.lids.lmc;
    if (sweep().routing.lmc_needed <= lmc) return true;
    const std::string shortfall =
        fmt::format("LMC {} is less than the {} scheme {} needs for its full guarantee on this fabric", lmc,
                    sweep().routing.lmc_needed, options_.scheme);
    if (options_.refuse_low_lmc) {
      fail(SweepError::kLmcRefused, shortfall + " (lmc_shortfall=refuse)", shortfall);
      return false;
    }
    say(SweepLevel::kError, numbered(SweepError::kLmcShort, shortfall + "; routing anyway (lmc_shortfall=warn)"));
    return true;
  }

  // Whether the scheme's tables are merged with the previous ones before
  // they are published (keep_valid_entries): then switches' own traffic is
  // completed once, on the merged tables, and on the scheme's own only where
  // those are installed. The strand check then cannot judge switch routes.
  bool merges_previous() const { return keeps_previous() && !options_.check_switch_routes; }
  bool keeps_previous() const { return in_.previous && !in_.repaired && options_.keep_tables; }

  // Minimal churn: with keep_tables, after a failure, every entry of the
  // previous tables that the up/down rule still allows replaces the
  // scheme's, provided the merged tables pass the check (else the scheme's
  // own tables, chosen in full then, go on to the check). After a repair (a
  // cable the previous tables' fabric lacked) the scheme's own tables come
  // back: kept detours would leave repaired cables idle (on FT(8,3) two
  // cables and two switches out and back raised the worst-case contention
  // from 7 to 16). Counts the entries that differ from the previous tables
  // either way, and logs both sides of the trade-off (with keep_tables, the
  // scheme's side before its switches' own routes are completed). The merge
  // counts as routing (SLs re-layered, switches' own routes made legal
  // against the previous tables), the counts and the check as checking.
  // False where the full choice after failed kept entries cannot route.
  bool keep_valid_entries() {
    if (!in_.previous || in_.repaired) return true;
    const Lfts& previous = *in_.previous;
    TradeOff& trade_off = sweep().trade_off;
    Clock::time_point start = Clock::now();
    // The scheme's side of the trade-off before the merge takes its tables;
    // a copy of them only where they are installed or weighed (88 MB on
    // FT(48,3)). Where the merged tables fail the check, auto chooses again.
    trade_off.rebalance_changed = table_change(in_.lids, previous, sweep().routing.lfts).entries;
    std::optional<Routing> scheme_own;
    if (!options_.keep_tables || options_.trade_off_audit) scheme_own = sweep().routing;
    sweep().check_ms += ms_since(start);
    start = Clock::now();
    Routing merged = std::move(sweep().routing);
    const RoutingInput input{in_.fabric, sweep().detection, in_.lids};
    keep_previous(input, previous, merged);
    complete_switch_traffic(input, merged, &previous);
    sweep().route_ms += ms_since(start);
    start = Clock::now();
    trade_off.repair_changed = table_change(in_.lids, previous, merged.lfts).entries;
    if (options_.trade_off_audit) {
      trade_off.repair_worst = routing_worst_case(in_.fabric, sweep_levels(), in_.lids, merged);
      trade_off.rebalance_worst = routing_worst_case(in_.fabric, sweep_levels(), in_.lids, *scheme_own);
    }
    sweep().traded = true;
    log_trade_off(trade_off);
    if (options_.keep_tables) adopt_if_sound(std::move(merged));
    if (scheme_own && !sweep().kept_entries) sweep().routing = std::move(*scheme_own);
    sweep().check_ms += ms_since(start);
    if (!options_.keep_tables || sweep().kept_entries) return true;
    // The scheme's own tables, chosen in full, go on to the check: their switches' own traffic first.
    if (!route(true)) return false;
    if (!merges_previous()) return true;  // the scheme completed it
    start = Clock::now();
    complete_switch_traffic(input, sweep().routing);
    sweep().route_ms += ms_since(start);
    checked_ = false;
    return true;
  }

  // After a failure, only the LIDs whose paths crossed a lost cable are
  // routed again (tables/crossing_repair.h), the tables checked whole; where
  // that does not apply or fails the check, the scheme routes in full and
  // the merge keeps the valid entries (keep_valid_entries). Not where the
  // scheme's contention polish would run (up to PolishLimits::max_cas CAs):
  // there its full route balances better, in milliseconds. Nor where both
  // sides of the trade-off are asked for: the scheme's side is its full route.
  bool repair_crossing() {
    if (!keeps_previous() || options_.trade_off_audit) return false;
    const long cas = std::ranges::count_if(in_.fabric.nodes(), [](const Node& node) { return !node.is_switch(); });
    if (options_.polish && cas <= PolishLimits{}.max_cas) return false;
    Clock::time_point start = Clock::now();
    const RoutingInput input{in_.fabric, sweep().detection, in_.lids};
    const std::vector<uint8_t> no_sls;
    // Where the memory holds the last tables' check, only the tables of the
    // switches that lost a cable are scanned. The counts' channels only:
    // the counting (start_counting) only reads them too, and goes on.
    const std::vector<int> lost_at =
        memory_usable_ ? in_.memory->counts->switches_losing_cables(in_.fabric) : std::vector<int>{};
    Result<CrossingRepair> repair = repair_crossing_lids(
        input, *in_.previous, in_.previous_sl ? *in_.previous_sl : no_sls, memory_usable_ ? &lost_at : nullptr);
    sweep().route_ms += ms_since(start);
    if (!repair.ok()) {
      say(SweepLevel::kVerbose, "repair of the LIDs that crossed the failure does not apply: " +
                                    repair.status().message() + "; the scheme routes in full");
      return false;
    }
    sweep().routing = std::move(repair->routing);
    start = Clock::now();
    std::optional<Correctness> kept = check_repaired_lids(*repair);
    Correctness check = kept ? *kept : audit(sweep().routing);
    sweep().check_ms += ms_since(start);
    if (std::string why = unsound(check); !why.empty()) {
      say(SweepLevel::kVerbose, "the repair of the LIDs that crossed the failure fails the check (" + why +
                                    "); the scheme routes in full");
      forget_change();
      return false;
    }
    for (const std::string& note : repair->routing.notes) say(SweepLevel::kVerbose, "note: " + note);
    sweep().check = std::move(check);
    sweep().checked_repaired_only = kept.has_value();
    checked_ = sweep().kept_entries = true;
    sweep().repaired_lids = static_cast<long>(repair->lids.size());
    known_change_ = TableChange{repair->changed, repair->changed_blocks};
    return true;
  }

  // The check of a repair that only the LIDs it routed again can change,
  // from the last sweep's kept check and counts (engine/sweep_memory.h):
  // every other column's routes are the last tables', which delivered every
  // pair, over cables all still there, so they still do; the repaired
  // columns' are walked whole (CrossingRepair::undelivered_lids). The new
  // tables' dependencies are the kept counts with the changed entries'
  // taken out and put back as they are now (counts_after): no cycle there,
  // none among the CAs' routes nor with switches' own. Where any of that
  // fails, or the CAs with a cable are not those the check counted,
  // nullopt: the caller audits the tables whole.
  std::optional<Correctness> check_repaired_lids(const CrossingRepair& repair) {
    if (!memory_counted() || repair.undelivered_lids > 0 || cabled_cas(in_.fabric) != in_.memory->cabled_cas)
      return std::nullopt;
    ChangedLids changed{std::vector<std::vector<int>>(in_.lids.max_lid + 1),
                        std::vector<uint8_t>(in_.lids.max_lid + 1, 0)};
    for (size_t i = 0; i < repair.lids.size(); ++i) changed.switches[repair.lids[i]] = repair.changed_switches[i];
    const Correctness kept = in_.memory->check;
    base_from_memory(std::move(changed));
    const uint16_t vls = counts_after_->vls();
    for (int vl = 0; vl < 16; ++vl)
      if ((vls >> vl & 1) && !counts_after_->cycle(vl).empty()) return std::nullopt;
    return kept;
  }

  // The sides of the change from the last tables to this sweep's.
  TablesSide before_side() const {
    return {*in_.previous, in_.previous_sl ? *in_.previous_sl : sweep_const().routing.dest_sl, no_exceptions_};
  }
  TablesSide after_side() const { return {sweep_const().routing.lfts, sweep_const().routing.dest_sl, no_exceptions_}; }
  const Sweep& sweep_const() const { return out_.sweep; }

  // The change's transition base from the kept counts of the last tables
  // (taken: they are the base now), and the new tables' counts from it.
  void base_from_memory(ChangedLids changed) {
    DependencyCounts counts = std::move(*in_.memory->counts);
    in_.memory->counts.reset();
    memory_usable_ = false;
    counts.lose_cables(in_.fabric);
    base_ = std::make_unique<TransitionBase>(in_.fabric, in_.lids, before_side(), std::move(changed), std::move(counts));
    counts_after_ = counts_after(*base_, after_side());
  }

  // The base and counts made for tables this sweep does not publish.
  void forget_change() {
    base_.reset();
    counts_after_.reset();
  }

  // Leaves the memory describing the tables published, sound ones only:
  // from this change's counts where it made them, the kept ones where
  // nothing changed, else uncounted (the next sweep counts them beside its
  // recognition: one pass over every entry).
  void remember() {
    if (!in_.memory) return;
    const Correctness& check = sweep().check;
    const bool sound = check.unreachable + check.loops + check.disconnected + check.switch_unreachable == 0 &&
                       check.credit_loops == 0 && check.switch_credit_loops == 0;
    if (!sound) {
      in_.memory->clear();
      return;
    }
    const Clock::time_point start = Clock::now();
    const Routing& routing = sweep().routing;
    std::optional<DependencyCounts> counts = std::move(counts_after_);
    if (!counts && memory_counted() && sweep().changed == 0) {
      counts = std::move(in_.memory->counts);
      counts->lose_cables(in_.fabric);
    }
    if (counts)
      in_.memory->keep(in_.fabric, in_.lids, check, std::move(*counts));
    else
      in_.memory->keep_uncounted(in_.fabric, in_.lids, check, routing.dest_sl);
    sweep().check_ms += ms_since(start);
  }

  // The deferred polish of this fabric replaces the published tables where
  // it lowers their worst case; it was checked on this fabric when made.
  void install_polished() {
    const PolishedTables* polished = in_.polished;
    if (!polished || !in_.previous) return;
    const bool lower = polished->worst < polished->published_worst;
    say(SweepLevel::kInfo, fmt::format("deferred polish: worst-case contention {:g} against the published {:g}; {}",
                                       polished->worst, polished->published_worst,
                                       lower ? "installed" : "the published tables stay"));
    if (!lower) return;
    sweep().routing = polished->routing;
    sweep().check = polished->check;
    forget_change();
    checked_ = sweep().polished = true;
    sweep().kept_entries = false;
  }

  void count_changes() {
    if (!in_.previous) return;
    // Repair first, polish later: what the repair budget left for engine/deferred_polish.h.
    sweep().polish_deferred = !sweep().polished && sweep().routing.polish_cut_short &&
                              options_.repair_polish_work < kFullPolishWork;
    // The repair of the crossing LIDs counted its change as it made it.
    const TableChange change = sweep().polished || !known_change_
                                   ? table_change(in_.lids, *in_.previous, sweep().routing.lfts)
                                   : *known_change_;
    sweep().changed = change.entries;
    sweep().changed_blocks = change.blocks;
  }

  // The change from the previous tables in steps safe in flight (checking
  // time): each consecutive pair's every mix loop-free and deadlock-free.
  void plan_steps() {
    if (!in_.previous || sweep().changed == 0) return;
    const Clock::time_point start = Clock::now();
    const TablesSide before = before_side(), after = after_side();
    // The transition base from the kept counts where the memory holds them:
    // only the changed entries read (a repair named them, else one
    // comparison of the tables), not every entry's dependencies.
    if (!base_ && memory_counted()) base_from_memory(changed_lids(in_.fabric, in_.lids, before, after));
    sweep().steps_from_memory = base_ != nullptr;
    sweep().steps = base_ ? plan_safe_steps(*base_, before, after) : plan_safe_steps(in_.fabric, in_.lids, before, after);
    sweep().check_ms += ms_since(start);
    const SafeSteps& steps = sweep().steps;
    if (!steps.safe()) {
      say(SweepLevel::kError, numbered(SweepError::kUnsafeChange,
                                       fmt::format("no order of the change is safe in flight ({}); installing it in "
                                                   "{} step{} all the same",
                                                   steps.unsafe_pair(), steps.steps.size(),
                                                   steps.steps.size() == 1 ? "" : "s")));
    } else if (steps.steps.size() > 1) {
      say(SweepLevel::kVerbose, fmt::format("the change goes out in {} steps safe in flight (every mix of two "
                                            "consecutive ones loop-free and deadlock-free)",
                                            steps.steps.size()));
    }
  }

  // The figures the sweep report gives (engine/sweep_metrics.h) and the
  // summary line's per-consumer worst cases, on fabrics small enough.
  void measure() {
    const long cas = std::ranges::count_if(in_.fabric.nodes(), [](const Node& node) { return !node.is_switch(); });
    if (cas > kConsumerFiguresCas) return;
    const Clock::time_point start = Clock::now();
    const Routing& routing = sweep().routing;
    AuditInput input{in_.fabric, sweep_levels(), in_.lids, routing.lfts, {}, routing.dest_sl, {}};
    SweepFigures figures;
    if (in_.lids.lmc > 0) {
      figures.consumers = consumer_figures(input, {OffsetChoice::Mode::kPathBits, 0, routing.path_bits});
    } else {  // one offset: one figure for every consumer
      const double worst = worst_case_value(input);
      figures.consumers = {worst, worst, worst};
    }
    input.count_non_minimal = false;
    figures.switch_credit_loops = check_correctness(input).switch_credit_loops;
    sweep().figures = figures;
    sweep().check_ms += ms_since(start);
  }

  // Installs the merged tables when they pass the check; says so.
  void adopt_if_sound(Routing merged) {
    Correctness check = audit(merged);
    if (unsound(check).empty()) {
      sweep().routing = std::move(merged);
      sweep().check = std::move(check);
      checked_ = sweep().kept_entries = true;
      return;
    }
    say(SweepLevel::kVerbose, fmt::format("the last sweep's entries kept fail the check ({} undelivered, {} credit "
                                          "loops); the scheme's own tables are used",
                                          check.unreachable + check.loops, check.credit_loops));
  }

  // Repair (keep_tables=on: the last sweep's valid entries) against rebalance
  // (keep_tables=off: the scheme's own tables), whichever is installed, once
  // the fabric changed under the tables. Each side's worst-case contention
  // only with trade_off_audit=on: two exact audits, seconds on FT(36,3).
  void log_trade_off(const TradeOff& trade_off) const {
    if (trade_off.repair_changed == 0 && trade_off.rebalance_changed == 0) return;
    auto worst_case = [&](double worst) {
      return worst < 0 ? std::string() : fmt::format(", worst-case contention {:g}", worst);
    };
    say(SweepLevel::kInfo, fmt::format("trade-off: repair (keep_tables=on) changes {} entries{}; rebalance "
                                       "(keep_tables=off) changes {}{}",
                                       trade_off.repair_changed, worst_case(trade_off.repair_worst),
                                       trade_off.rebalance_changed, worst_case(trade_off.rebalance_worst)));
  }

  // Credit loops are logged and installed; undelivered CA routes end the
  // sweep unless allowed.
  bool check() {
    const Clock::time_point start = Clock::now();
    if (!checked_) sweep().check = audit(sweep().routing);
    sweep().check_ms += ms_since(start);
    const Correctness& check = sweep().check;
    if (check.credit_loops > 0)
      say(SweepLevel::kError,
          numbered(SweepError::kCreditLoops, fmt::format("{} credit loops in the new tables (cycles in the channel "
                                                         "dependency graph per VL); installing them all the same",
                                                         check.credit_loops)));
    else if (check.switch_credit_loops > 0)
      say(SweepLevel::kError,
          numbered(SweepError::kCreditLoops,
                   fmt::format("{} credit loops in the new tables once switches' own routes (PMA traffic) join the "
                               "CAs'; installing them all the same",
                               check.switch_credit_loops)));
    const long undelivered = check.unreachable + check.loops;
    if (undelivered == 0) return true;
    std::string what = fmt::format("{} of {} CA routes do not deliver", undelivered, check.pairs);
    for (size_t i = 0; i < check.examples.size() && i < 3; ++i) what += (i ? "; " : ", e.g. ") + check.examples[i];
    if (!options_.allow_unreachable) {
      fail(SweepError::kUnreachableRefused,
           fmt::format("scheme {} leaves CAs unreachable: {} (unreachable=refuse)", options_.scheme, what), what);
      return false;
    }
    say(SweepLevel::kError, numbered(SweepError::kUnreachableAllowed, what + "; routing anyway (unreachable=allow)"));
    return true;
  }

  std::string summary(double total_ms) const {
    const Sweep& s = out_.sweep;
    const Routing& routing = s.routing;
    return fmt::format(
        "{}{}; scheme {}{}{}; LMC {} ({} needed); {} CA routes, {} undelivered, {} credit loops; {} switch routes "
        "(PMA), {} undelivered; {}{} entries re-routed around failures; {}; {:.1f} ms ({:.1f} recognition, {:.1f} "
        "routing, {:.1f} checking; {} threads)",
        family_summary(s.detection),
        s.detection.degraded() ? fmt::format(": {} deviations", s.detection.deviations().size()) : "",
        options_.scheme, routing.chosen.empty() ? "" : fmt::format(" chose {}", routing.chosen), vls(routing),
        in_.lids.lmc, routing.lmc_needed, s.check.pairs, s.check.unreachable + s.check.loops, s.check.credit_loops,
        s.check.switch_pairs, s.check.switch_unreachable, by_consumer(), routing.rerouted, churn(), total_ms, s.recognize_ms,
        s.route_ms, s.check_ms, options_.threads);
  }

  // At LMC > 0, the worst case of hosts on offset 0 (the SA's first
  // PathRecord: rdmacm, default UCX and MPI) and on their path bits: two
  // exact audits, so only up to kConsumerFiguresCas CAs (seconds on FT(36,3)).
  std::string by_consumer() const {
    if (in_.lids.lmc == 0) return "";
    const std::optional<SweepFigures>& figures = out_.sweep.figures;
    if (!figures)
      return fmt::format("worst case by consumer not measured above {} CAs (ftclos audit measures it); ",
                         kConsumerFiguresCas);
    return fmt::format("worst case offset 0 {:g}, path bits {:g}; ", figures->consumers.offset0,
                       *figures->consumers.path_bits);
  }

  // The VLs the routing's SLs take (SL k on VL k), where it sets SLs: as
  // many as distinct SLs (torus leaves SL 0 to multicast).
  static std::string vls(const Routing& routing) {
    if (routing.dest_sl.empty()) return "";
    const std::set<uint8_t> sls(routing.dest_sl.begin(), routing.dest_sl.end());
    return fmt::format(" on {} VL{}", sls.size(), sls.size() == 1 ? "" : "s");
  }

  std::string churn() const {
    const Sweep& s = out_.sweep;
    if (s.changed < 0) return "no last sweep to compare with";
    const char* why = s.polished               ? "the deferred polish installed"
                      : s.repaired_lids >= 0   ? "only the LIDs that crossed the failure routed again"
                      : s.kept_entries         ? "its valid entries kept"
                      : !options_.keep_tables  ? "from scratch, keep_tables=off"
                      : in_.repaired           ? "a repair: the scheme's own tables"
                                               : "kept entries failed the check: from scratch";
    return fmt::format("{} entries in {} LFT blocks changed since the last sweep ({})", s.changed, s.changed_blocks,
                       why);
  }

  const SweepInput& in_;
  const SweepOptions& options_;
  const SweepLog& log_;
  SweepOutcome out_;
  bool checked_ = false;  // out_.sweep.check is for out_.sweep.routing
  bool memory_usable_ = false;  // in_.memory holds the counts of in_.previous (memory_counted)
  bool counting_failed_ = false;  // set by counting_, read after it ends
  std::jthread counting_;  // start_counting's
  const std::vector<SlException> no_exceptions_;
  std::unique_ptr<TransitionBase> base_;          // of the change to out_.sweep.routing, from the kept counts
  std::optional<DependencyCounts> counts_after_;  // of out_.sweep.routing, from base_
  std::optional<TableChange> known_change_;  // from the previous tables, where repair_crossing counted it
};

}  // namespace

std::string numbered(SweepError error, std::string_view what) {
  return fmt::format("ERR {:02d}: {}", static_cast<int>(error), what);
}

SweepOutcome run_sweep(const SweepInput& input, const SweepOptions& options, const SweepLog& log) {
  return SweepRun(input, options, log).run();
}

std::string undelivered_reason(const Correctness& check, bool switch_routes) {
  const long switch_failed = switch_routes ? check.switch_unreachable : 0;
  const long failed = check.unreachable + check.loops + switch_failed;
  // switch_credit_loops counts the CAs' loops too, where the check counted it.
  const int credit_loops = switch_routes ? std::max(check.credit_loops, check.switch_credit_loops) : check.credit_loops;
  if (failed == 0 && credit_loops == 0) return "";
  if (failed == 0) {  // deadlock-prone: a wrong answer too
    const auto loop = std::ranges::find_if(check.examples, [](const std::string& e) {
      return e.starts_with("credit loop") || e.starts_with("with switches' own routes, credit loop");
    });
    return fmt::format("the tables have {} credit loops{}{}", credit_loops,
                       credit_loops > check.credit_loops ? " with switches' own routes" : "",
                       loop == check.examples.end() ? "" : ", e.g. " + *loop);
  }
  const std::string switches =
      switch_failed == 0 ? ""
                         : fmt::format("; {} of {} switch routes (PMA queries and answers)", switch_failed,
                                       check.switch_pairs);
  return fmt::format("the tables leave {} of {} CA routes undelivered ({} unreachable, {} in loops){}{}",
                     check.unreachable + check.loops, check.pairs, check.unreachable, check.loops, switches,
                     check.examples.empty() ? "" : ", e.g. " + check.examples.front());
}

}  // namespace ftclos
