#include "engine/safe_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "paths/cdg_layers.h"

namespace ftclos {

bool SafeSteps::safe() const {
  return std::ranges::all_of(checks, [](const TransitionCheck& check) { return check.safe(); });
}

std::string SafeSteps::unsafe_pair() const {
  for (size_t k = 0; k < checks.size(); ++k) {
    const TransitionCheck& check = checks[k];
    if (check.safe()) continue;
    return fmt::format("the change from {} to step {} of {} is not safe in flight: {} looping LIDs, credit-loop VLs "
                       "{:#x}{}",
                       k == 0 ? std::string("the previous tables") : fmt::format("step {}", k), k + 1, steps.size(),
                       check.looping_lids, check.credit_loop_vls,
                       check.examples.empty() ? "" : "; e.g. " + check.examples.front());
  }
  return "";
}

namespace {

// A LID the change touches: the switches whose entry for it changes.
struct LidChange {
  int lid;
  std::vector<int> switches;  // ascending
};

// [i][j]: the step at which lid_changes[i].switches[j] takes its new entry (1, 2, ...).
using Schedule = std::vector<std::vector<uint8_t>>;

uint8_t sl_of(const std::vector<uint8_t>& sls, int lid) { return lid < static_cast<int>(sls.size()) ? sls[lid] : 0; }

struct Change {
  Change(const TransitionBase& base_in, const TablesSide& before_in, const TablesSide& after_in)
      : fabric(base_in.fabric),
        lids(base_in.lids),
        before(before_in),
        after(after_in),
        base(base_in),
        index_of(fabric.size(), -1) {
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      if (base.changed.changing(lid) && lids.owner[lid] >= 0) lid_changes.push_back({lid, base.changed.switches[lid]});
  }

  const Fabric& fabric;
  const LidMap& lids;
  const TablesSide& before;
  const TablesSide& after;
  const TransitionBase& base;  // the LIDs the change leaves alone, for every pair's check
  const Channels& channels = base.channels();
  std::vector<LidChange> lid_changes;  // ascending by LID: entries or SL change
  mutable std::vector<int> index_of;   // scratch: switch -> its index in one LidChange, else -1

  const std::vector<int>& switches() const { return channels.switches(); }
  bool moving(int lid) const { return sl_of(before.dest_sl, lid) != sl_of(after.dest_sl, lid); }
  int next(const Lfts& lfts, int x, int lid) const {
    const int c = channels.of(x, lfts.at_or_none(x, lid));
    return c < 0 ? -1 : channels.peer(c);
  }
  Schedule ones() const {
    Schedule schedule;
    for (const LidChange& entry : lid_changes) schedule.emplace_back(entry.switches.size(), 1);
    return schedule;
  }
  // index_of for one LidChange's switches (and back to -1 with `false`).
  void index(const LidChange& entry, bool on) const {
    for (size_t j = 0; j < entry.switches.size(); ++j) index_of[entry.switches[j]] = on ? static_cast<int>(j) : -1;
  }
};

// Every changed entry at step 1, then, step by step, a switch whose new
// entry closes a loop with the entries of the step before held back one
// step more ("hold the first back"): a single cut takes two steps.
Schedule hold_back_schedule(const Change& change) {
  Schedule step = change.ones();
  std::vector<std::array<int, 2>> hops(change.fabric.size());  // of a changed switch: next switch before and after step t
  UnionLoopSearch loops(change.fabric.size());
  for (size_t i = 0; i < change.lid_changes.size(); ++i) {
    const LidChange& entry = change.lid_changes[i];
    const int lid = entry.lid;
    change.index(entry, true);
    // A loop of the union passes a changed entry (the old tables are
    // loop-free), so the search starts at those, and reads another switch's
    // entry only where it goes (the whole column was a cache miss per switch).
    const auto union_hops = [&](int x) {
      if (change.index_of[x] >= 0) return hops[x];
      const int hop = change.next(change.before.lfts, x, lid);
      return std::array<int, 2>{hop, hop};
    };
    for (int t = 1; !entry.switches.empty() && t < 255; ++t) {
      bool later = false;
      for (;;) {
        later = false;
        for (size_t j = 0; j < entry.switches.size(); ++j) {
          const int x = entry.switches[j], s = step[i][j];
          const int old_hop = change.next(change.before.lfts, x, lid), new_hop = change.next(change.after.lfts, x, lid);
          hops[x] = {s < t ? new_hop : old_hop, s <= t ? new_hop : old_hop};
          later |= s > t;
        }
        const std::vector<int> loop = loops.find(entry.switches, union_hops);
        if (loop.empty()) break;
        // Hold back a switch whose edge on the loop is its new entry, taken at step t.
        int held = -1;
        for (size_t k = 0; k < loop.size() && held < 0; ++k) {
          const int x = loop[k], onward = loop[(k + 1) % loop.size()], j = change.index_of[x];
          if (j >= 0 && step[i][j] == t && hops[x][1] == onward && hops[x][0] != onward) held = j;
        }
        if (held < 0) break;  // the old tables themselves loop: nothing to hold
        step[i][held] = static_cast<uint8_t>(t + 1);
      }
      if (!later) break;
    }
    change.index(entry, false);
  }
  return step;
}

// A switch takes its new entry one step after every changed switch on its
// new path onward: the order of the header, sound whatever the old tables.
Schedule chain_schedule(const Change& change) {
  Schedule step = change.ones();
  std::vector<int> chain(change.fabric.size(), -1), walk, touched;
  std::vector<uint8_t> on_walk(change.fabric.size(), 0);
  for (size_t i = 0; i < change.lid_changes.size(); ++i) {
    const LidChange& entry = change.lid_changes[i];
    const int lid = entry.lid;
    change.index(entry, true);
    for (int start : entry.switches) {
      if (chain[start] >= 0) continue;
      // Down the new path to a switch already known, a CA, no route or (new
      // tables that loop) a switch of this walk; then back up, counting.
      int known = 0;
      for (int x = start; x >= 0; x = change.next(change.after.lfts, x, lid)) {
        if (chain[x] >= 0) {
          known = chain[x];
          break;
        }
        if (on_walk[x]) break;
        on_walk[x] = 1;
        walk.push_back(x);
      }
      for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
        const int j = change.index_of[*it];
        known += j >= 0;
        chain[*it] = known;
        on_walk[*it] = 0;
        touched.push_back(*it);
        if (j >= 0) step[i][j] = static_cast<uint8_t>(std::min(known, 255));
      }
      walk.clear();
    }
    for (int x : touched) chain[x] = -1;
    touched.clear();
    change.index(entry, false);
  }
  return step;
}

// Per LID, a switch takes its new entry one step after the next changed
// switch on its new path (as in chain_schedule) and one step after every
// changed switch whose old path leads to it next (the doomed entry
// upstream goes first: an old entry toward a dead cable drops its packets
// until then). Within two consecutive steps an old entry then leads only
// to old entries and a new one only to new ones, so every packet follows
// an old path or a new path whole and the union's dependencies are those
// of the two routings' paths: on an SL whose routes are up/down on both
// sides, acyclic. nullopt where these orders close a cycle for some LID.
std::optional<Schedule> both_ways_schedule(const Change& change) {
  Schedule step = change.ones();
  const int nodes = change.fabric.size();
  std::vector<int> order, earlier_count(nodes, 0);
  std::vector<std::vector<int>> later(nodes);  // [x]: the changed switches that go after x
  for (size_t i = 0; i < change.lid_changes.size(); ++i) {
    const LidChange& entry = change.lid_changes[i];
    const int lid = entry.lid;
    change.index(entry, true);
    // The first changed switch after x along `lfts`' path (-1: none).
    auto next_changed = [&](const Lfts& lfts, int x) {
      int z = change.next(lfts, x, lid);
      for (int hops = 0; z >= 0 && change.index_of[z] < 0 && hops < nodes; ++hops) z = change.next(lfts, z, lid);
      return z >= 0 && change.index_of[z] >= 0 ? z : -1;
    };
    for (int x : entry.switches) {
      if (const int on_new = next_changed(change.after.lfts, x); on_new >= 0 && on_new != x)
        later[on_new].push_back(x), ++earlier_count[x];
      if (const int on_old = next_changed(change.before.lfts, x); on_old >= 0 && on_old != x)
        later[x].push_back(on_old), ++earlier_count[on_old];
    }
    // Longest paths by Kahn's order: each switch one step after the latest before it.
    order.clear();
    for (int x : entry.switches)
      if (earlier_count[x] == 0) order.push_back(x);
    for (size_t k = 0; k < order.size(); ++k) {
      const uint8_t at = step[i][change.index_of[order[k]]];
      for (int y : later[order[k]]) {
        uint8_t& then = step[i][change.index_of[y]];
        then = static_cast<uint8_t>(std::clamp(at + 1, int{then}, 255));
        if (--earlier_count[y] == 0) order.push_back(y);
      }
    }
    const bool ordered = order.size() == entry.switches.size();
    for (int x : entry.switches) later[x].clear(), earlier_count[x] = 0;
    change.index(entry, false);
    if (!ordered) return std::nullopt;
  }
  return step;
}

// The step from which each LID is answered on its new SL (0: its SL stays),
// by lid_changes' index: a rising LID's at step 1, its new entries one step
// later than `schedule` says (shifted here); a falling LID's one step after
// its last new entry.
std::vector<int> stage_sls(const Change& change, Schedule& schedule) {
  std::vector<int> sl_step(change.lid_changes.size(), 0);
  for (size_t i = 0; i < change.lid_changes.size(); ++i) {
    const int lid = change.lid_changes[i].lid;
    if (!change.moving(lid)) continue;
    const bool rising = sl_of(change.after.dest_sl, lid) > sl_of(change.before.dest_sl, lid);
    int last = 0;
    for (uint8_t& step : schedule[i]) {
      if (rising && step < 255) ++step;
      last = std::max<int>(last, step);
    }
    sl_step[i] = rising ? 1 : last + 1;
  }
  return sl_step;
}

// The SLs answered with step k: the new ones but where `sl_step` says later.
std::vector<uint8_t> sls_at_step(const Change& change, const std::vector<int>& sl_step, int k) {
  if (std::ranges::none_of(sl_step, [&](int s) { return s > k; })) return change.after.dest_sl;
  std::vector<uint8_t> sls(change.lids.max_lid + 1, 0);
  for (int lid = 1; lid <= change.lids.max_lid; ++lid) sls[lid] = sl_of(change.after.dest_sl, lid);
  for (size_t i = 0; i < change.lid_changes.size(); ++i)
    if (sl_step[i] > k) sls[change.lid_changes[i].lid] = sl_of(change.before.dest_sl, change.lid_changes[i].lid);
  return sls;
}

// `steps` after the old tables, each consecutive pair checked.
SafeSteps checked(const Change& change, std::vector<TableStep> steps) {
  SafeSteps out;
  auto side = [&](const TableStep& step) {
    return TablesSide{change.after.lfts, step.dest_sl, change.after.sl_exceptions, &step.differs};
  };
  for (size_t k = 0; k < steps.size(); ++k)
    out.checks.push_back(check_transition(change.base, k == 0 ? change.before : side(steps[k - 1]), side(steps[k])));
  out.steps = std::move(steps);
  return out;
}

// The table sets `schedule` gives, with the SLs staged as stage_sls says,
// each checked against the one before. No step is skipped: from a set
// further on, the next one need not be safe (FT(8,3) in OpenSM,
// failure_sweep.sh: with such skips 10 of 13 changes logged ERR 17,
// without none of 20).
SafeSteps publish(const Change& change, Schedule schedule) {
  const std::vector<int> sl_step = stage_sls(change, schedule);
  int count = 1;
  for (int s : sl_step) count = std::max(count, s);
  for (const std::vector<uint8_t>& row : schedule)
    for (uint8_t s : row) count = std::max<int>(count, s);
  std::vector<TableStep> steps;
  for (int k = 1; k <= count; ++k) {
    TableStep step{EntryOverrides(change.lids.max_lid + 1), sls_at_step(change, sl_step, k)};
    for (size_t i = 0; i < change.lid_changes.size(); ++i) {
      const LidChange& entry = change.lid_changes[i];
      for (size_t j = 0; j < entry.switches.size(); ++j)  // ascending, as EntryOverrides wants
        if (schedule[i][j] > k)
          step.differs[entry.lid].push_back(
              {entry.switches[j], change.before.lfts.at_or_none(entry.switches[j], entry.lid)});
    }
    steps.push_back(std::move(step));
  }
  return checked(change, std::move(steps));
}

// The last resort, safe whatever the two sides: step 1 drops the packets
// of every changed entry, and of every entry toward a LID whose SL changes
// but those that deliver it (they add no dependency), on the old SLs;
// step 2 answers the new SLs over the same tables; the last step is the
// new tables. Each pair's union is then a part of one side's dependencies
// on that side's SLs: step 1's entries are old ones; in step 2 the LIDs
// that change SL have no entries and the rest hold entries both sides
// hold, on the SL both answer; the last pair adds new entries to new ones.
// Those packets are lost for a step or two.
SafeSteps drained_steps(const Change& change) {
  EntryOverrides drained(change.lids.max_lid + 1);
  bool any_moving = false;
  for (const LidChange& entry : change.lid_changes) {
    std::vector<std::pair<int, uint8_t>>& entries = drained[entry.lid];
    for (int x : entry.switches) entries.push_back({x, kNoPath});
    if (!change.moving(entry.lid)) continue;
    any_moving = true;
    // Every entry that still leads to a switch (the changed ones lead nowhere now).
    for (int x : change.switches())
      if (change.next(change.after.lfts, x, entry.lid) >= 0) entries.push_back({x, kNoPath});
    std::ranges::sort(entries);
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  }
  std::vector<TableStep> steps;
  if (any_moving) steps.push_back({drained, change.before.dest_sl});
  steps.push_back({std::move(drained), any_moving ? change.after.dest_sl : change.before.dest_sl});
  steps.push_back({EntryOverrides(change.lids.max_lid + 1), change.after.dest_sl});
  return checked(change, std::move(steps));
}

}  // namespace

Lfts step_tables(const Lfts& after, const TableStep& step) {
  Lfts tables = after;
  apply_step(step, tables);
  return tables;
}

void apply_step(const TableStep& step, Lfts& tables) {
  for (int lid = 0; lid < static_cast<int>(step.differs.size()); ++lid)
    for (const auto& [x, port] : step.differs[lid]) {
      std::vector<uint8_t>& table = tables.port[x];
      if (lid >= static_cast<int>(table.size())) {
        if (port == kNoPath) continue;
        table.resize(lid + 1, kNoPath);
      }
      table[lid] = port;
    }
}

SafeSteps plan_safe_steps(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after) {
  const TransitionBase base(fabric, lids, before, changed_lids(fabric, lids, before, after));
  return plan_safe_steps(base, before, after);
}

SafeSteps plan_safe_steps(const TransitionBase& base, const TablesSide& before, const TablesSide& after) {
  const Change change(base, before, after);
  if (SafeSteps held_back = publish(change, hold_back_schedule(change)); held_back.safe()) return held_back;
  if (SafeSteps chained = publish(change, chain_schedule(change)); chained.safe()) return chained;
  if (std::optional<Schedule> both_ways = both_ways_schedule(change)) {
    if (SafeSteps ordered = publish(change, std::move(*both_ways)); ordered.safe()) return ordered;
  }
  return drained_steps(change);
}

}  // namespace ftclos
