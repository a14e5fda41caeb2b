// Changes published in steps safe in flight (engine/safe_steps.h): after a
// single cable cut or switch loss, the sweep with the last tables plans
// steps whose every consecutive pair is loop-free and deadlock-free, judged
// by audit/transition.h and by the plain check below, written apart from it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "audit/transition.h"
#include "engine/sweep.h"
#include "gen/generate.h"
#include "route/lid_map.h"

namespace ftclos {
namespace {

// A cycle in a graph given by its successor lists, by recursive search.
bool has_cycle(const std::vector<std::vector<int>>& next) {
  std::vector<int> state(next.size(), 0);  // 1 on the path, 2 done
  std::function<bool(int)> visit = [&](int node) {
    state[node] = 1;
    for (int to : next[node]) {
      if (state[to] == 1) return true;
      if (state[to] == 0 && visit(to)) return true;
    }
    state[node] = 2;
    return false;
  };
  for (size_t node = 0; node < next.size(); ++node)
    if (state[node] == 0 && !next[node].empty() && visit(static_cast<int>(node))) return true;
  return false;
}

// Every mix of `a` and `b`: per LID the union of next switches, per SL
// (both sides' per LID; VL = SL) the union of channel dependencies, a
// channel being (switch, port) toward a switch, numbered switch x 256 + port.
std::string unsafe_mix(const Fabric& fabric, const LidMap& lids, const Lfts& a, const std::vector<uint8_t>& a_sl,
                       const Lfts& b, const std::vector<uint8_t>& b_sl) {
  auto next_switch = [&](int x, uint8_t port) {
    if (port == 0 || port > fabric.node(x).num_ports) return -1;
    const PortRef peer = fabric.node(x).ports[port].peer;
    return peer.valid() && fabric.node(peer.node).is_switch() ? peer.node : -1;
  };
  auto sl = [](const std::vector<uint8_t>& sls, int lid) { return sls.empty() ? 0 : sls[lid]; };
  const size_t channels = static_cast<size_t>(fabric.size()) * 256;
  std::map<int, std::vector<std::vector<int>>> by_sl;
  for (int lid = 1; lid <= lids.max_lid; ++lid) {
    if (lids.owner[lid] < 0) continue;
    std::vector<std::vector<int>> hops(fabric.size());
    auto ports = [&](int x) { return std::set<uint8_t>{a.at_or_none(x, lid), b.at_or_none(x, lid)}; };
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch()) continue;
      for (uint8_t p : ports(x)) {
        const int y = next_switch(x, p);
        if (y < 0) continue;
        hops[x].push_back(y);
        for (uint8_t q : ports(y))
          if (next_switch(y, q) >= 0)
            for (int s : {sl(a_sl, lid), sl(b_sl, lid)}) {
              std::vector<std::vector<int>>& deps = by_sl[s];
              deps.resize(channels);
              deps[x * 256 + p].push_back(y * 256 + q);
            }
      }
    }
    if (has_cycle(hops)) return fmt::format("LID {} loops", lid);
  }
  for (const auto& [s, deps] : by_sl)
    if (has_cycle(deps)) return fmt::format("a credit loop on SL {}", s);
  return "";
}

struct Base {
  Fabric fabric;
  LidMap lids;
  Routing routing;
};

Base routed(Fabric fabric) {
  Base base{std::move(fabric), {}, {}};
  base.lids = *assign_lids(base.fabric, 0);
  const HostHints hints;
  SweepOutcome outcome = run_sweep({base.fabric, base.lids, hints}, {});
  EXPECT_TRUE(outcome.ok()) << outcome.message;
  base.routing = std::move(outcome.sweep.routing);
  return base;
}

// Each pair of `steps` after `from` is safe both ways of judging, and the
// last step is `to`.
void expect_safe_chain(const Fabric& fabric, const LidMap& lids, const Routing& from, const SafeSteps& steps,
                       const Routing& to, const std::string& what) {
  if (steps.steps.empty()) return;  // nothing changed
  EXPECT_EQ(step_tables(to.lfts, steps.steps.back()).port, to.lfts.port) << what;
  EXPECT_EQ(steps.steps.back().dest_sl, to.dest_sl) << what;
  EXPECT_TRUE(steps.safe()) << what << ": " << steps.unsafe_pair();
  Lfts lfts = from.lfts;
  const std::vector<uint8_t>* sls = &from.dest_sl;
  for (size_t k = 0; k < steps.steps.size(); ++k) {
    Lfts next = step_tables(to.lfts, steps.steps[k]);
    EXPECT_EQ(unsafe_mix(fabric, lids, lfts, *sls, next, steps.steps[k].dest_sl), "") << what << ", step " << k + 1;
    lfts = std::move(next);
    sls = &steps.steps[k].dest_sl;
  }
}

// The sweep after `cut` (the base fabric with some cables gone) plans
// steps from the base tables, and the polish's installation (the scheme's
// own tables of `cut`, as the deferred polish routes them) steps from those;
// each pair of either is safe both ways of judging. Returns how many steps
// the repair took.
int steps_after(const Base& base, const Fabric& cut, const std::string& what) {
  const HostHints hints;
  SweepInput input{cut, base.lids, hints, &base.routing.lfts};
  input.previous_sl = &base.routing.dest_sl;
  const SweepOutcome repair = run_sweep(input, {});
  EXPECT_TRUE(repair.ok()) << what << ": " << repair.message;
  if (!repair.ok()) return 0;
  const Routing& repaired = repair.sweep.routing;
  expect_safe_chain(cut, base.lids, base.routing, repair.sweep.steps, repaired, what);
  // Unpolished here: the full polish's budget on every failure would take minutes.
  SweepOptions unpolished;
  unpolished.polish = false;
  const SweepOutcome fresh = run_sweep({cut, base.lids, hints}, unpolished);
  EXPECT_TRUE(fresh.ok()) << what << ": " << fresh.message;
  if (!fresh.ok()) return 0;
  const Routing& polished = fresh.sweep.routing;
  const std::vector<SlException> none;
  expect_safe_chain(cut, base.lids, repaired,
                    plan_safe_steps(cut, base.lids, {repaired.lfts, repaired.dest_sl, none},
                                    {polished.lfts, polished.dest_sl, none}),
                    polished, what + ", then the polish");
  return static_cast<int>(repair.sweep.steps.steps.size());
}

// Every switch-to-switch cable of `fabric`, once, by its lower end.
std::vector<PortRef> switch_cables(const Fabric& fabric) {
  std::vector<PortRef> out;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports && fabric.node(x).is_switch(); ++p)
      if (const PortRef peer = fabric.peer({x, p}); peer.valid() && fabric.node(peer.node).is_switch() && PortRef{x, p} < peer)
        out.push_back({x, p});
  return out;
}

// Every single cable cut and every single switch loss of `fabric`; the
// steps each repair took.
std::vector<int> steps_after_every_failure(Fabric fabric) {
  const Base base = routed(std::move(fabric));
  std::vector<int> counts;
  for (const PortRef cable : switch_cables(base.fabric)) {
    Fabric cut = base.fabric;
    cut.disconnect(cable);
    counts.push_back(steps_after(base, cut, "cable " + base.fabric.node(cable.node).name + " port " +
                                                std::to_string(cable.port)));
  }
  for (int x = 0; x < base.fabric.size(); ++x) {
    if (!base.fabric.node(x).is_switch()) continue;
    Fabric cut = base.fabric;
    for (int p = 1; p <= cut.node(x).num_ports; ++p)
      if (cut.peer({x, p}).valid()) cut.disconnect({x, p});
    counts.push_back(steps_after(base, cut, "switch " + base.fabric.node(x).name));
  }
  return counts;
}

TEST(SafeSteps, EverySingleFailureOfFt83) {
  const std::vector<int> counts = steps_after_every_failure(*generate_ftree(8, 3));
  // A cut needs a second step where a switch turns into another pod's
  // level-2 switch still pointing up at it.
  EXPECT_GE(*std::ranges::max_element(counts), 2);
}

// The 64-host random folded Clos: switches' own routes turn at the turn
// leaf and change SL between sweeps (the SLs go out staged, or over
// drained entries).
TEST(SafeSteps, EverySingleFailureOfTheRfc) {
  const std::vector<int> counts = steps_after_every_failure(*generate_rfc(8, 16, 3, 1));
  EXPECT_GE(*std::ranges::max_element(counts), 3);
}

// Parallel cables: a cut leaves the pair joined.
TEST(SafeSteps, EverySingleFailureOfPgftsWithParallelCables) {
  for (const PgftParams& params : {PgftParams{{4, 8}, {1, 4}, {1, 2}}, PgftParams{{4, 4, 4}, {1, 2, 2}, {1, 2, 1}}})
    steps_after_every_failure(*generate_pgft(params));
}

}  // namespace
}  // namespace ftclos
