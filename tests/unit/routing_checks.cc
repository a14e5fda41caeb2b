#include "routing_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>

#include "audit/audit.h"
#include "audit/path_trace.h"
#include "core/end_nodes.h"
#include "detect/levels.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

constexpr int kShownFailures = 10;  // the rest only count

const char* outcome_name(Trace::Outcome outcome) {
  switch (outcome) {
    case Trace::Outcome::kDelivered:
      return "delivered";
    case Trace::Outcome::kNoRoute:
      return "no route";
    case Trace::Outcome::kLoop:
      return "loop";
    case Trace::Outcome::kDeadPort:
      return "dead port";
  }
  return "?";
}

std::vector<int> cas_with_lids(const Routed& routed) {
  std::vector<int> cas;
  for (int i = 0; i < routed.fabric.size(); ++i)
    if (!routed.fabric.node(i).is_switch() && routed.lids.base[i] != 0) cas.push_back(i);
  return cas;
}

// Marks every switch reached from `seeds` by cables whose far end is at
// `step` levels from the near end; step 0 means any cable.
std::vector<bool> closure(const Fabric& fabric, const Levels& levels, std::vector<bool> marked, int step) {
  std::deque<int> queue;
  for (int i = 0; i < fabric.size(); ++i)
    if (marked[i]) queue.push_back(i);
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (const Port& port : fabric.node(x).ports) {
      const int y = port.peer.valid() ? port.peer.node : -1;
      if (y < 0 || marked[y] || !fabric.node(y).is_switch()) continue;
      if (step != 0 && levels.of[y] != levels.of[x] + step) continue;
      marked[y] = true;
      queue.push_back(y);
    }
  }
  return marked;
}

std::vector<bool> only(const Fabric& fabric, int node) {
  std::vector<bool> marked(fabric.size(), false);
  marked[node] = true;
  return marked;
}

// Counts failures and reports the first few.
class Failures {
 public:
  explicit Failures(const char* what) : what_(what) {}
  ~Failures() { EXPECT_EQ(count_, 0) << count_ << " " << what_ << " failed"; }
  void add(const std::string& message) {
    if (++count_ <= kShownFailures) ADD_FAILURE() << message;
  }

 private:
  const char* what_;
  int count_ = 0;
};

}  // namespace

Fabric generated(Result<Fabric> fabric) {
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return fabric.ok() ? std::move(*fabric) : Fabric();
}

Fabric with_level_cables(Fabric fabric, int cables, int level) {
  Variations variations;
  variations.level_cables = cables;
  variations.level_cables_level = level;
  const Result<VariationLog> log = vary(fabric, variations);
  EXPECT_TRUE(log.ok()) << log.status().message();
  return fabric;
}

Routed route_fabric(const Scheme& scheme, Fabric fabric, int lmc, bool polish) {
  Routed routed;
  // As every command does (core/end_nodes.h): each cabled CA port a node.
  routed.fabric = split_end_nodes(fabric);
  routed.detection = detect(routed.fabric);
  Result<LidMap> lids = assign_lids(routed.fabric, lmc);
  if (!lids.ok()) {
    routed.status = lids.status();
    return routed;
  }
  routed.lids = std::move(*lids);
  RoutingInput input = routed.input();
  input.polish = polish;
  Result<Routing> routing = scheme.route(input);
  if (!routing.ok()) {
    routed.status = routing.status();
    return routed;
  }
  routed.routing = std::move(*routing);
  return routed;
}

std::vector<PortRef> switch_cables(const Fabric& fabric) {
  std::vector<PortRef> cables;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef peer = fabric.peer({x, p});
      if (fabric.node(x).is_switch() && peer.valid() && fabric.node(peer.node).is_switch() && x < peer.node)
        cables.push_back({x, p});
    }
  return cables;
}

int leaf_of(const Fabric& fabric, int ca) {
  if (fabric.node(ca).num_ports < 1) return -1;
  const PortRef peer = fabric.node(ca).ports[1].peer;
  return peer.valid() && fabric.node(peer.node).is_switch() ? peer.node : -1;
}

std::vector<bool> down_sources(const Fabric& fabric, const Levels& levels, int target) {
  return closure(fabric, levels, only(fabric, target), +1);
}

std::vector<bool> updown_sources(const Fabric& fabric, const Levels& levels, int target) {
  return closure(fabric, levels, down_sources(fabric, levels, target), -1);
}

int common_ancestor_level(const Fabric& fabric, const Levels& levels, int a, int b) {
  const std::vector<bool> over_a = closure(fabric, levels, only(fabric, a), +1);
  const std::vector<bool> over_b = closure(fabric, levels, only(fabric, b), +1);
  int best = -1;
  for (int i = 0; i < fabric.size(); ++i)
    if (over_a[i] && over_b[i] && (best < 0 || levels.of[i] < best)) best = levels.of[i];
  return best;
}

void expect_all_pairs_delivered(const Routed& routed, PathRules rules) {
  const Fabric& fabric = routed.fabric;
  const Levels& levels = routed.detection.levels;
  const LidMap& lids = routed.lids;
  const std::vector<int> cas = cas_with_lids(routed);
  for (int s : cas)
    if (!routed.routing.path_bits.empty()) {
      EXPECT_GE(routed.routing.path_bits[s], 0);
      EXPECT_LT(routed.routing.path_bits[s], lids.lids_per_ca()) << fabric.node(s).name;
    }
  std::map<std::pair<int, int>, int> ancestor_level;  // by leaf pair
  Failures failures("CA pairs");
  for (int d : cas) {
    const int leaf_d = leaf_of(fabric, d);
    const std::vector<bool> joined =
        leaf_d >= 0 ? updown_sources(fabric, levels, leaf_d) : std::vector<bool>(fabric.size(), false);
    for (int s : cas) {
      const int leaf_s = leaf_of(fabric, s);
      if (s == d || leaf_s < 0) continue;
      int expected_hops = 0;
      if (rules.minimal && joined[leaf_s]) {
        auto [it, added] = ancestor_level.try_emplace({leaf_s, leaf_d}, 0);
        if (added) it->second = common_ancestor_level(fabric, levels, leaf_s, leaf_d);
        expected_hops = 2 * it->second;
      }
      for (int o = 0; o < lids.lids_per_ca(); ++o) {
        const int dlid = lids.base[d] + o;
        const Trace path = trace(fabric, lids, routed.routing.lfts, s, dlid);
        std::string problem;
        if (joined[leaf_s] && path.outcome != Trace::Outcome::kDelivered)
          problem = outcome_name(path.outcome);
        else if (path.outcome == Trace::Outcome::kLoop || path.outcome == Trace::Outcome::kDeadPort)
          problem = outcome_name(path.outcome);
        else if (path.outcome == Trace::Outcome::kDelivered && rules.up_down && !is_up_down(fabric, levels, path))
          problem = "not up/down";
        else if (path.outcome == Trace::Outcome::kDelivered && rules.minimal &&
                 static_cast<int>(path.hops.size()) != expected_hops)
          problem = "took " + std::to_string(path.hops.size()) + " hops, not " + std::to_string(expected_hops);
        if (!problem.empty())
          failures.add(fabric.node(s).name + " -> " + fabric.node(d).name + " LID " + std::to_string(dlid) + ": " +
                       problem);
      }
    }
  }
}

void expect_switch_lids_reachable(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const Levels& levels = routed.detection.levels;
  Failures failures("CA-to-switch traces");
  for (int s : cas_with_lids(routed)) {
    const int leaf = leaf_of(fabric, s);
    if (leaf < 0) continue;
    const std::vector<bool> connected = closure(fabric, levels, only(fabric, leaf), 0);
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch() || !connected[x] || routed.lids.base[x] == 0) continue;
      const Trace path = trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[x]);
      if (path.outcome != Trace::Outcome::kDelivered)
        failures.add(fabric.node(s).name + " -> switch " + fabric.node(x).name + ": " + outcome_name(path.outcome));
    }
  }
}

void expect_lfts_filled(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const Levels& levels = routed.detection.levels;
  const LidMap& lids = routed.lids;
  std::map<int, std::vector<bool>> can_reach;  // by owner: which switches can reach it
  auto sources_of = [&](int owner) -> const std::vector<bool>& {
    auto [it, added] = can_reach.try_emplace(owner);
    if (!added) return it->second;
    if (fabric.node(owner).is_switch()) {
      it->second = closure(fabric, levels, only(fabric, owner), 0);
    } else {
      const int leaf = leaf_of(fabric, owner);
      it->second = leaf >= 0 ? updown_sources(fabric, levels, leaf) : std::vector<bool>(fabric.size(), false);
    }
    return it->second;
  };
  Failures failures("LFT entries");
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] < 1) continue;
    const std::vector<uint8_t>& table = routed.routing.lfts.port[x];
    ASSERT_EQ(table.size(), static_cast<size_t>(lids.max_lid) + 1) << fabric.node(x).name;
    for (int lid = 1; lid <= lids.max_lid; ++lid) {
      const int owner = lids.owner[lid];
      if (owner >= 0 && table[lid] == kNoPath && sources_of(owner)[x])
        failures.add(fabric.node(x).name + " has no port for LID " + std::to_string(lid) + " of " +
                     fabric.node(owner).name);
    }
  }
}

long switch_detour_entries(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  long count = 0;
  for (int d : cas_with_lids(routed)) {
    const int leaf = leaf_of(fabric, d);
    if (leaf < 0) continue;
    const std::vector<bool> joined = updown_sources(fabric, routed.detection.levels, leaf);
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && routed.detection.levels.of[x] >= 1 && !joined[x])
        count += routed.lids.lids_per_ca();
  }
  return count;
}

void expect_repair_moves_only_switch_routes(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const Lfts& lfts = routed.routing.lfts;
  Routing repaired = routed.routing;
  repair_dead_ports(routed.input(), repaired);
  for (const auto& [x, lid] : changed_entries(lfts, repaired.lfts)) {
    const int owner = routed.lids.owner[lid];
    if (fabric.node(owner).is_switch()) continue;
    // No CA's route to the LID crosses x.
    for (int s : cas_with_lids(routed)) {
      if (s == owner) continue;
      std::vector<bool> seen(fabric.size(), false);
      for (int at = fabric.peer({s, 1}).node; at >= 0 && fabric.node(at).is_switch() && !seen[at];) {
        EXPECT_NE(at, x) << fabric.node(x).name << " LID " << lid << ": repair moves the route of " << fabric.node(s).name;
        seen[at] = true;
        const uint8_t port = lfts.at(at, lid);
        if (port == kNoPath || port == 0 || port > fabric.node(at).num_ports) break;
        at = fabric.peer({at, port}).node;
      }
    }
  }
}

std::vector<std::pair<int, int>> changed_entries(const Lfts& before, const Lfts& after) {
  std::vector<std::pair<int, int>> changed;
  for (size_t node = 0; node < before.port.size() && node < after.port.size(); ++node) {
    const std::vector<uint8_t>& a = before.port[node];
    const std::vector<uint8_t>& b = after.port[node];
    for (size_t lid = 0; lid < std::max(a.size(), b.size()); ++lid) {
      const uint8_t x = lid < a.size() ? a[lid] : kNoPath;
      const uint8_t y = lid < b.size() ? b[lid] : kNoPath;
      if (x != y) changed.push_back({static_cast<int>(node), static_cast<int>(lid)});
    }
  }
  return changed;
}

std::vector<ChannelUse> channel_uses(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  std::map<PortRef, std::pair<std::vector<bool>, std::vector<bool>>> seen;  // sources, destinations
  for (int s = 0; s < fabric.size(); ++s) {
    for (int d = 0; d < fabric.size(); ++d) {
      if (s == d || fabric.node(s).is_switch() || fabric.node(d).is_switch()) continue;
      const int dlid = routed.lids.base[d] + routed.routing.path_bits[s];
      for (const PortRef hop : trace(fabric, routed.lids, routed.routing.lfts, s, dlid).hops) {
        const PortRef peer = fabric.peer(hop);
        if (!fabric.node(hop.node).is_switch() || !peer.valid() || !fabric.node(peer.node).is_switch()) continue;
        auto [it, added] = seen.try_emplace(hop);
        if (added) it->second = {std::vector<bool>(fabric.size()), std::vector<bool>(fabric.size())};
        it->second.first[s] = it->second.second[d] = true;
      }
    }
  }
  std::vector<ChannelUse> uses;
  for (const auto& [channel, ends] : seen)
    uses.push_back({direction(fabric, routed.detection.levels, channel) == Direction::kUp,
                    static_cast<int>(std::ranges::count(ends.first, true)),
                    static_cast<int>(std::ranges::count(ends.second, true))});
  return uses;
}

int busiest_channel(const std::vector<ChannelUse>& uses) {
  int busiest = 0;
  for (const ChannelUse& use : uses) busiest = std::max(busiest, std::min(use.sources, use.destinations));
  return busiest;
}

double exact_worst_case(const Routed& routed) {
  const AuditInput input{routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts,
                         {OffsetChoice::Mode::kPathBits, 0, routed.routing.path_bits}, routed.routing.dest_sl, {}};
  return worst_case_contention(input).worst_case;
}

bool notes_mention(const Routing& routing, const std::string& text) {
  return std::ranges::any_of(routing.notes,
                             [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

void expect_routes_everything(const Routed& routed) {
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_switch_lids_reachable(routed);
  expect_lfts_filled(routed);
}

void expect_derived_bound(const Routed& routed, int bound) {
  expect_routes_everything(routed);
  EXPECT_TRUE(notes_mention(routed.routing, "worst-case contention <= " + std::to_string(bound)));
  EXPECT_LE(busiest_channel(channel_uses(routed)), bound);
  EXPECT_LE(exact_worst_case(routed), bound);
}

void expect_degraded_pgft_routes_every_pair(const Scheme& scheme, const PgftParams& pgft, int lmc) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    Fabric fabric = generated(generate_pgft(pgft));
    ASSERT_TRUE(degrade(fabric, {3, -1, seed}).ok());
    const Routed routed = route_fabric(scheme, std::move(fabric), lmc);
    ASSERT_TRUE(routed.status.ok()) << routed.status.message();
    EXPECT_GT(routed.routing.rerouted, 0) << "seed " << seed;
    expect_routes_everything(routed);
  }
}

void expect_same_verdicts(const Correctness& got, const Correctness& expected, const std::string& where) {
  EXPECT_EQ(got.pairs, expected.pairs) << where;
  EXPECT_EQ(got.disconnected, expected.disconnected) << where;
  EXPECT_EQ(got.unreachable, expected.unreachable) << where;
  EXPECT_EQ(got.loops, expected.loops) << where;
  EXPECT_EQ(got.updown_violations, expected.updown_violations) << where;
  EXPECT_EQ(got.credit_loops, expected.credit_loops) << where;
  EXPECT_EQ(got.switch_pairs, expected.switch_pairs) << where;
  EXPECT_EQ(got.switch_unreachable, expected.switch_unreachable) << where;
  EXPECT_EQ(got.switch_credit_loops, expected.switch_credit_loops) << where;
  EXPECT_EQ(got.sls_used, expected.sls_used) << where;
  EXPECT_EQ(got.vls_used, expected.vls_used) << where;
}

Correctness audit_on_sls(const Routed& routed, std::vector<uint8_t> sls) {
  return check_correctness(
      {routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, std::move(sls), {}});
}

Correctness expect_shortest_and_deadlock_free_on_its_sls(const Routed& routed) {
  const Correctness c = audit_on_sls(routed, routed.routing.dest_sl);
  const int cas = routed.fabric.count(NodeType::kCa);
  EXPECT_EQ(c.pairs, long{cas} * (cas - 1));
  EXPECT_EQ(c.unreachable, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.loops, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.credit_loops, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.non_minimal, 0) << "every route is a shortest path";
  return c;
}

Fabric without_cable(Fabric fabric, const std::string& a, const std::string& b) {
  const int x = *fabric.find(a), y = *fabric.find(b);
  for (const Port& port : fabric.node(x).ports)
    if (port.peer.node == y) {
      fabric.disconnect(port.peer);
      break;
    }
  return fabric;
}

}  // namespace ftclos
