#include "engine/safe_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

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

// Where entries admitted one by one still leave some behind, the rest go
// out with the last step (and its check says why).
constexpr int kMostAdmittedSteps = 8;

// [switch][lid]: the step at which the switch takes its new entry for the
// LID (1, 2, ...), 0 where the entry does not change.
using Schedule = std::vector<std::vector<uint8_t>>;

struct Change {
  const Fabric& fabric;
  const LidMap& lids;
  const TablesSide& before;
  const TablesSide& after;
  Channels channels{fabric, StarRoots{}};

  const std::vector<int>& switches() const { return channels.switches(); }
  bool changed(int x, int lid) const { return before.lfts.at_or_none(x, lid) != after.lfts.at_or_none(x, lid); }
  int next(const Lfts& lfts, int x, int lid) const {
    const int c = channels.of(x, lfts.at_or_none(x, lid));
    return c < 0 ? -1 : channels.peer(c);
  }
  Schedule empty() const {
    Schedule schedule(fabric.size());
    for (int x : switches()) schedule[x].assign(lids.max_lid + 1, 0);
    return schedule;
  }
};

// Every changed entry at step 1, then, step by step, a switch whose new
// entry closes a loop with the entries of the step before held back one
// step more ("hold the first back"): a single cut takes two steps.
Schedule hold_back_schedule(const Change& change) {
  Schedule step = change.empty();
  const std::vector<int>& switches = change.switches();
  std::vector<std::array<int, 2>> hops(change.fabric.size());  // next switch before and after step t
  UnionLoopSearch loops(change.fabric.size());
  for (int lid = 1; lid <= change.lids.max_lid; ++lid) {
    if (change.lids.owner[lid] < 0) continue;
    bool any = false;
    for (int x : switches)
      if (change.changed(x, lid)) step[x][lid] = 1, any = true;
    for (int t = 1; any && t < 255; ++t) {
      for (;;) {
        any = false;
        for (int x : switches) {
          const int old_hop = change.next(change.before.lfts, x, lid), new_hop = change.next(change.after.lfts, x, lid);
          const int s = step[x][lid];
          hops[x] = {s != 0 && s < t ? new_hop : old_hop, s != 0 && s <= t ? new_hop : old_hop};
          any |= s > t;
        }
        const std::vector<int> loop = loops.find(switches, [&](int x) { return hops[x]; });
        if (loop.empty()) break;
        // Hold back a switch whose edge on the loop is its new entry, taken at step t.
        int held = -1;
        for (size_t i = 0; i < loop.size() && held < 0; ++i) {
          const int x = loop[i], onward = loop[(i + 1) % loop.size()];
          if (step[x][lid] == t && hops[x][1] == onward && hops[x][0] != onward) held = x;
        }
        if (held < 0) break;  // the old tables themselves loop: nothing to hold
        step[held][lid] = static_cast<uint8_t>(t + 1);
        any = true;
      }
      if (!any) break;
    }
  }
  return step;
}

// A switch takes its new entry one step after every changed switch on its
// new path onward: the order of the header, sound whatever the old tables.
Schedule chain_schedule(const Change& change) {
  Schedule step = change.empty();
  std::vector<int> chain(change.fabric.size(), -1), walk;
  std::vector<uint8_t> on_walk(change.fabric.size(), 0);
  for (int lid = 1; lid <= change.lids.max_lid; ++lid) {
    if (change.lids.owner[lid] < 0) continue;
    for (int x : change.switches()) chain[x] = -1;
    for (int start : change.switches()) {
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
        known += change.changed(*it, lid);
        chain[*it] = known;
        on_walk[*it] = 0;
        if (change.changed(*it, lid)) step[*it][lid] = static_cast<uint8_t>(std::min(known, 255));
      }
      walk.clear();
    }
  }
  return step;
}

// The table sets `schedule` gives, each checked against the one before. No
// step is skipped: from a set further on, the next one need not be safe
// (FT(8,3) in OpenSM, failure_sweep.sh: with such skips 10 of 13 changes
// logged ERR 17, without none of 20).
SafeSteps publish(const Change& change, const Schedule& schedule) {
  int steps = 1;
  for (const std::vector<uint8_t>& row : schedule)
    for (uint8_t s : row) steps = std::max<int>(steps, s);
  SafeSteps out;
  out.steps.reserve(steps);  // `from` points into it
  const TablesSide& after = change.after;
  const Lfts* from = &change.before.lfts;
  const std::vector<uint8_t>* from_sls = &change.before.dest_sl;
  const std::vector<SlException>* from_exceptions = &change.before.sl_exceptions;
  for (int k = 1; k <= steps; ++k) {
    Lfts tables = after.lfts;
    for (int x : change.switches())
      for (int lid = 1; lid < static_cast<int>(std::min(tables.port[x].size(), schedule[x].size())); ++lid)
        if (schedule[x][lid] > k) tables.port[x][lid] = change.before.lfts.at_or_none(x, lid);
    out.checks.push_back(check_transition(change.fabric, change.lids, {*from, *from_sls, *from_exceptions},
                                          {tables, after.dest_sl, after.sl_exceptions}));
    out.steps.push_back(std::move(tables));
    from = &out.steps.back();
    from_sls = &after.dest_sl;
    from_exceptions = &after.sl_exceptions;
  }
  return out;
}

// Where no order of whole schedules keeps the channel dependencies of two
// consecutive steps acyclic (turns of switches' own routes and of the ANs'
// detours, old and new, chained across LIDs): the changed entries
// admitted one by one, each into the next step where the union of the
// step before and the next one stays loop-free for its LID and acyclic on
// its VLs, the rest left for a later step; where none fits, the rest drop
// their packets for a step.
SafeSteps admitted_steps(const Change& change, int most_steps) {
  const Channels& channels = change.channels;
  const std::vector<uint16_t> sls = sls_by_lid(change.lids, change.before, change.after);
  std::vector<std::pair<int, int>> left;  // (LID, switch) of the entries still old
  for (int lid = 1; lid <= change.lids.max_lid; ++lid)
    if (change.lids.owner[lid] >= 0)
      for (int x : change.switches())
        if (change.changed(x, lid)) left.emplace_back(lid, x);
  SafeSteps out;
  out.steps.reserve(most_steps + 1);
  Lfts current = change.after.lfts;  // the entries not yet new: the old ones
  for (const auto& [lid, x] : left) current.port[x][lid] = change.before.lfts.at_or_none(x, lid);
  const Lfts* from = &change.before.lfts;
  const std::vector<uint8_t>* from_sls = &change.before.dest_sl;
  const std::vector<SlException>* from_exceptions = &change.before.sl_exceptions;
  std::vector<uint8_t> seen(change.fabric.size(), 0);
  std::vector<int> stack;
  while (!left.empty() && static_cast<int>(out.steps.size()) < most_steps) {
    Lfts next = current;
    std::vector<AcyclicLayer> layers;
    for (int v = 0; v < 16; ++v) layers.emplace_back(channels);
    for (int lid = 1; lid <= change.lids.max_lid; ++lid)
      if (change.lids.owner[lid] >= 0) {
        const std::vector<Dependency> deps = dependencies_toward(current, channels, lid);
        for (int v = 0; v < 16; ++v)
          if (sls[lid] & (1u << v)) layers[v].try_add(deps);
      }
    // The union ports of switch `at` for `lid`: this step's and the next one's.
    auto union_ports = [&](int at, int lid) {
      return std::array<uint8_t, 2>{current.port[at][lid], next.port[at][lid]};
    };
    std::vector<std::pair<int, int>> still;
    for (const auto& [lid, x] : left) {
      const uint8_t port = change.after.lfts.at_or_none(x, lid);
      const int c = channels.of(x, port);
      bool fits = true;
      std::vector<Dependency> deps;
      if (c >= 0) {
        const int y = channels.peer(c);
        // A loop: y reaching x along the union's ports.
        stack.assign(1, y);
        std::vector<int> marked{y};
        seen[y] = 1;
        while (!stack.empty() && fits) {
          const int at = stack.back();
          stack.pop_back();
          for (uint8_t p : union_ports(at, lid)) {
            const int d = channels.of(at, p);
            if (d < 0) continue;
            const int z = channels.peer(d);
            if (z == x) fits = false;
            if (seen[z]) continue;
            seen[z] = 1;
            marked.push_back(z);
            stack.push_back(z);
          }
        }
        for (int z : marked) seen[z] = 0;
        for (int w : change.switches())
          for (uint8_t p : union_ports(w, lid))
            if (const int in = channels.of(w, p); in >= 0 && channels.peer(in) == x) deps.emplace_back(in, c);
        for (uint8_t p : union_ports(y, lid))
          if (const int on = channels.of(y, p); on >= 0) deps.emplace_back(c, on);
      }
      for (int v = 0; v < 16 && fits; ++v)
        if (sls[lid] & (1u << v)) fits = layers[v].try_add(deps);
      if (fits)
        next.port[x][lid] = port;
      else
        still.emplace_back(lid, x);
    }
    // Entries that fit no step twice running (old and new turns blocking
    // each other across LIDs) drop their packets for one step: a dead end
    // adds no dependency, and their new ports fit the step after, where
    // only new dependencies remain (the old entry toward a dead cable
    // drops them anyway).
    for (const auto& [lid, x] : still)
      if (still.size() == left.size() || !out.steps.empty()) next.port[x][lid] = kNoPath;
    left = std::move(still);
    out.checks.push_back(check_transition(change.fabric, change.lids, {*from, *from_sls, *from_exceptions},
                                          {next, change.after.dest_sl, change.after.sl_exceptions}));
    current = next;
    out.steps.push_back(std::move(next));
    from = &out.steps.back();
    from_sls = &change.after.dest_sl;
    from_exceptions = &change.after.sl_exceptions;
  }
  if (!left.empty()) {
    out.checks.push_back(check_transition(change.fabric, change.lids, {*from, *from_sls, *from_exceptions},
                                          change.after));
    out.steps.push_back(change.after.lfts);
  }
  return out;
}

}  // namespace

SafeSteps plan_safe_steps(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after) {
  const Change change{fabric, lids, before, after};
  SafeSteps held_back = publish(change, hold_back_schedule(change));
  if (held_back.safe()) return held_back;
  SafeSteps chained = publish(change, chain_schedule(change));
  if (chained.safe()) return chained;
  SafeSteps admitted = admitted_steps(change, kMostAdmittedSteps);
  return admitted.safe() ? admitted : held_back;
}

}  // namespace ftclos
