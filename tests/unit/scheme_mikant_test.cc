#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "audit/path_trace.h"
#include "gen/generate.h"
#include "mikant_cuts.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

Fabric must(Result<Fabric> fabric) {
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return fabric.ok() ? std::move(*fabric) : Fabric();
}

// A fabric with its detection, LIDs and mikant routing.
struct Routed {
  Fabric fabric;
  Detection detection;
  LidMap lids;
  Routing routing;

  explicit Routed(Fabric input, int lmc = 0) : fabric(std::move(input)), detection(detect(fabric)) {
    Result<LidMap> assigned = assign_lids(fabric, lmc);
    EXPECT_TRUE(assigned.ok()) << assigned.status().message();
    if (assigned.ok()) lids = *assigned;
    EXPECT_TRUE(detection.mikant.has_value()) << detection.unknown_reason;
    if (!detection.mikant) return;
    Result<Routing> routed = make_mikant_scheme()->route({fabric, detection, lids});
    EXPECT_TRUE(routed.ok()) << routed.status().message();
    if (routed.ok()) routing = *routed;
  }

  const MikantLabels& labels() const { return *detection.mikant; }
  std::vector<int> cas() const {
    std::vector<int> out;
    for (int x = 0; x < fabric.size(); ++x)
      if (!fabric.node(x).is_switch()) out.push_back(x);
    return out;
  }
  // The paper's label: switch <G,L,D_{n-2},...,D_0>, host <G,C_{n-1},...,C_0>.
  std::string label(int x) const {
    const std::vector<int>& d = labels().digits[x];
    const std::vector<int> high_first(d.rbegin(), d.rend());
    if (!fabric.node(x).is_switch()) return fmt::format("<{},{}>", labels().group[x], fmt::join(high_first, ","));
    return fmt::format("<{},{},{}>", labels().group[x], labels().stage[x], fmt::join(high_first, ","));
  }
  // Among the hosts only: a switch label may read alike.
  int find_host(const std::string& text) const {
    for (int x : cas())
      if (label(x) == text) return x;
    ADD_FAILURE() << "no host " << text;
    return -1;
  }
  Trace trace_to(int source, int destination) const {
    return trace(fabric, lids, routing.lfts, source, lids.base[destination]);
  }
  // Switch labels along a path, with the egress port at each.
  std::vector<std::string> switches_on(const Trace& path) const {
    std::vector<std::string> out;
    for (const PortRef hop : path.hops)
      if (fabric.node(hop.node).is_switch()) out.push_back(fmt::format("{} {}", label(hop.node), hop.port));
    return out;
  }
};

// Theorem 6's distances: 2n - 1 links between groups; within a group twice
// (1 + the stage of the nearest common ancestor), 2 under one leaf.
int paper_links(const MikantLabels& labels, int s, int t) {
  const int n = labels.n;
  if (labels.group[s] != labels.group[t]) return 2 * n - 1;
  for (int j = n - 2; j >= 0; --j)
    if (labels.digits[s][j] != labels.digits[t][j]) return 2 * (j + 2);
  return 2;
}

// Theorem 6's average over all ordered pairs, a node to itself included.
double paper_average(int k, int n) {
  double kn = 1;
  for (int i = 0; i < n; ++i) kn *= k;
  return 2 * n - 1.0 / (k - 1) + 1.0 / ((k - 1) * kn) - 0.5;
}

// Channel dependencies of the delivered paths from every CA to every CA,
// and to every switch when `to_switches`: a channel is a directed
// switch-to-switch cable (its egress port), and c1 -> c2 when a path uses c1
// then c2. Keyed by the path's SL, or all under 0 with `one_sl`.
using Dependencies = std::map<int, std::set<std::pair<PortRef, PortRef>>>;

Dependencies dependencies(const Routed& r, bool one_sl, bool to_switches) {
  Dependencies out;
  for (int source : r.cas())
    for (int dest = 0; dest < r.fabric.size(); ++dest) {
      if (dest == source || (!to_switches && r.fabric.node(dest).is_switch())) continue;
      const int lid = r.lids.base[dest];
      const Trace path = trace(r.fabric, r.lids, r.routing.lfts, source, lid);
      if (path.outcome != Trace::Outcome::kDelivered) continue;
      const int sl = one_sl ? 0 : r.routing.dest_sl[lid];
      for (size_t i = 1; i + 1 < path.hops.size(); ++i) {
        const PortRef a = path.hops[i], b = path.hops[i + 1];
        if (r.fabric.node(r.fabric.peer(b).node).is_switch()) out[sl].insert({a, b});
      }
    }
  return out;
}

// Kahn's algorithm: the graph is acyclic iff every channel can be removed.
bool has_cycle(const std::set<std::pair<PortRef, PortRef>>& edges) {
  std::map<PortRef, int> in_degree;
  std::map<PortRef, std::vector<PortRef>> next;
  for (const auto& [a, b] : edges) {
    in_degree[a];
    ++in_degree[b];
    next[a].push_back(b);
  }
  std::vector<PortRef> ready;
  for (const auto& [channel, degree] : in_degree)
    if (degree == 0) ready.push_back(channel);
  size_t removed = 0;
  while (!ready.empty()) {
    const PortRef channel = ready.back();
    ready.pop_back();
    ++removed;
    for (const PortRef after : next[channel])
      if (--in_degree[after] == 0) ready.push_back(after);
  }
  return removed < in_degree.size();
}

// Follows the LFTs from every switch to every LID: no loops, no dead ends.
void expect_every_switch_reaches_every_lid(const Routed& r) {
  for (int w = 0; w < r.fabric.size(); ++w) {
    if (!r.fabric.node(w).is_switch()) continue;
    for (int lid = 1; lid <= r.lids.max_lid; ++lid) {
      int at = w;
      for (int hops = 0; at != r.lids.owner[lid] && hops <= r.fabric.size(); ++hops) {
        const uint8_t port = r.routing.lfts.at(at, lid);
        if (port == 0 || port == kNoPath) break;
        at = r.fabric.peer({at, port}).node;
        if (at < 0) break;
      }
      EXPECT_EQ(at, r.lids.owner[lid]) << r.fabric.node(w).name << " -> LID " << lid;
    }
  }
}

TEST(SchemeMikant, EveryPairOnThePapersMinimalPaths) {
  for (auto [k, n] : {std::pair{3, 3}, {4, 3}, {3, 4}, {2, 2}}) {
    SCOPED_TRACE(fmt::format("MiKANT({}, {})", k, n));
    const Routed r(must(generate_mikant(k, n)));
    EXPECT_EQ(r.routing.rerouted, 0);
    double links = 0;
    for (int s : r.cas())
      for (int t : r.cas()) {
        if (s == t) continue;
        const Trace path = r.trace_to(s, t);
        ASSERT_EQ(path.outcome, Trace::Outcome::kDelivered) << r.label(s) << " -> " << r.label(t);
        EXPECT_EQ(static_cast<int>(path.hops.size()), paper_links(r.labels(), s, t))
            << r.label(s) << " -> " << r.label(t);
        links += path.hops.size();
      }
    const double pairs = static_cast<double>(r.cas().size()) * r.cas().size();
    EXPECT_NEAR(links / pairs, paper_average(k, n), 1e-9);
    expect_every_switch_reaches_every_lid(r);
  }
}

// Switch LIDs whose routes from hostless switches would close a credit loop
// on their group's SL go on SLs of their own (SwitchTraffic checks the loops).
TEST(SchemeMikant, SlIsTheDestinationGroupOnEveryCaLid) {
  const Routed r(must(generate_mikant(3, 3)), 2);
  ASSERT_EQ(r.routing.dest_sl.size(), r.lids.max_lid + 1u);
  for (int lid = 1; lid <= r.lids.max_lid; ++lid) {
    const int owner = r.lids.owner[lid];
    if (owner >= 0 && !r.fabric.node(owner).is_switch()) {
      EXPECT_EQ(r.routing.dest_sl[lid], r.labels().group[owner]) << "LID " << lid;
    }
  }
  // Every LID of a CA's 2^lmc gets the same route; no path bits.
  for (int w = 0; w < r.fabric.size(); ++w) {
    EXPECT_EQ(r.routing.path_bits[w], 0);
    if (!r.fabric.node(w).is_switch()) continue;
    for (int ca : r.cas())
      for (int offset = 1; offset < r.lids.lids_per_ca(); ++offset)
        EXPECT_EQ(r.routing.lfts.at(w, r.lids.base[ca] + offset), r.routing.lfts.at(w, r.lids.base[ca]));
  }
  EXPECT_EQ(r.routing.lmc_needed, 0);
}

// Table II: MiKANT(3, 4) from S = <0,2,0,0,0>. The paper's port labels are
// 0..2k-1; the generator numbers ports one higher, so its ports read
// label + 1 (5 -> 6, 2 -> 3).
TEST(SchemeMikant, TableTwoOfThePaper) {
  const Routed r(must(generate_mikant(3, 4)));
  const int s = r.find_host("<0,2,0,0,0>");
  const std::map<std::string, std::vector<std::string>> table = {
      {"<1,2,2,2,2>",
       {"<0,0,0,0,0> 6", "<0,1,0,0,2> 6", "<0,2,0,2,2> 6", "<1,2,2,2,2> 3", "<1,1,2,2,2> 3", "<1,0,2,2,2> 3"}},
      {"<0,2,2,2,2>",
       {"<0,0,0,0,0> 6", "<0,1,0,0,2> 6", "<0,2,0,2,2> 6", "<1,2,2,2,2> 6", "<0,2,2,2,2> 3", "<0,1,2,2,2> 3",
        "<0,0,2,2,2> 3"}},
      {"<0,2,0,2,2>", {"<0,0,0,0,0> 6", "<0,1,0,0,2> 6", "<0,2,0,2,2> 3", "<0,1,0,2,2> 3", "<0,0,0,2,2> 3"}},
      {"<0,2,0,0,2>", {"<0,0,0,0,0> 6", "<0,1,0,0,2> 3", "<0,0,0,0,2> 3"}},
  };
  for (const auto& [t, switches] : table) {
    const Trace path = r.trace_to(s, r.find_host(t));
    EXPECT_EQ(path.outcome, Trace::Outcome::kDelivered);
    EXPECT_EQ(r.switches_on(path), switches) << "to " << t;
  }
}

// Ports come from the cabling, not from the paper's numbering.
TEST(SchemeMikant, ShuffledPortsGiveTheSameSwitchSequences) {
  const Routed plain(must(generate_mikant(3, 3)));
  const Routed shuffled(shuffle(plain.fabric, 7, true));
  auto labels_only = [](const Routed& r, const Trace& path) {
    std::vector<std::string> out;
    for (const PortRef hop : path.hops)
      if (r.fabric.node(hop.node).is_switch()) out.push_back(r.label(hop.node));
    return out;
  };
  for (int s : plain.cas())
    for (int t : plain.cas()) {
      if (s == t) continue;
      const int s2 = shuffled.find_host(plain.label(s)), t2 = shuffled.find_host(plain.label(t));
      const Trace path = shuffled.trace_to(s2, t2);
      ASSERT_EQ(path.outcome, Trace::Outcome::kDelivered);
      EXPECT_EQ(labels_only(shuffled, path), labels_only(plain, plain.trace_to(s, t)));
    }
}

// Intact fabrics, all CA traffic (to CAs and switches): acyclic per SL. Even
// on one SL: Algorithm 1 takes the straight cable <G,n-2,D> - <!G,n-2,D> for
// a second crossing, and nothing crosses again after that cable.
TEST(SchemeMikant, ChannelDependenciesAcyclicPerSl) {
  for (auto [k, n] : {std::pair{3, 3}, {4, 3}, {3, 4}, {2, 2}}) {
    SCOPED_TRACE(fmt::format("MiKANT({}, {})", k, n));
    const Routed r(must(generate_mikant(k, n)));
    const Dependencies per_group = dependencies(r, false, true);
    EXPECT_GE(per_group.size(), 2u);  // the groups', and switch LIDs' own where they need one
    for (const auto& [sl, edges] : per_group) EXPECT_FALSE(has_cycle(edges)) << "SL " << sl;
    EXPECT_FALSE(has_cycle(dependencies(r, true, true).at(0)));
  }
}

// Without the straight cables same-group traffic crosses twice over other
// cables, for both groups: one SL then has a cycle, one SL per destination
// group does not.
TEST(SchemeMikant, DetoursCycleOnOneSlButNotPerGroup) {
  for (auto [k, n] : {std::pair{3, 3}, {4, 3}, {3, 4}}) {
    SCOPED_TRACE(fmt::format("MiKANT({}, {})", k, n));
    Fabric fabric = must(generate_mikant(k, n));
    cut_straight_cables(fabric);
    const Routed r(std::move(fabric));
    EXPECT_GT(r.routing.rerouted, 0);
    for (int s : r.cas())
      for (int t : r.cas()) {
        if (s != t) {
          ASSERT_EQ(r.trace_to(s, t).outcome, Trace::Outcome::kDelivered) << r.label(s) << " -> " << r.label(t);
        }
      }
    EXPECT_TRUE(has_cycle(dependencies(r, true, false).at(0)));
    for (const auto& [sl, edges] : dependencies(r, false, false)) EXPECT_FALSE(has_cycle(edges)) << "SL " << sl;
  }
}

TEST(SchemeMikant, DegradedReroutesAndStaysDeadlockFree) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(fmt::format("seed {}", seed));
    Fabric fabric = must(generate_mikant(3, 3));
    ASSERT_TRUE(degrade(fabric, {.fail_links = 2, .seed = seed}).ok());
    const Routed r(std::move(fabric));
    EXPECT_GT(r.routing.rerouted, 0);
    for (int s : r.cas())
      for (int t : r.cas()) {
        if (s != t) {
          EXPECT_EQ(r.trace_to(s, t).outcome, Trace::Outcome::kDelivered) << r.label(s) << " -> " << r.label(t);
        }
      }
    for (const auto& [sl, edges] : dependencies(r, false, false)) EXPECT_FALSE(has_cycle(edges)) << "SL " << sl;
    expect_every_switch_reaches_every_lid(r);
  }
}

bool connected(const Fabric& fabric) {
  std::vector<bool> seen(fabric.size(), false);
  std::vector<int> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && !seen[port.peer.node]) seen[port.peer.node] = true, stack.push_back(port.peer.node);
  }
  return std::ranges::all_of(seen, [](bool b) { return b; });
}

// MiKANT(3, 2): leaf <0,0,0> keeps only its side cable to <1,0,2>, and
// <0,0,1> loses its own to <1,0,2>. <1,0,0> could still reach <0,0,0> over
// <0,0,1> and <1,0,2>, but only by crossing three times: no route, noted.
TEST(SchemeMikant, PairsWithoutADeadlockFreeRouteStayUnroutedAndNoted) {
  Fabric fabric = must(generate_mikant(3, 2));
  const int a = *fabric.find("G0-L0-0"), t = *fabric.find("G0-L0-1");
  const int b0 = *fabric.find("G1-L0-0"), b1 = *fabric.find("G1-L0-1"), b2 = *fabric.find("G1-L0-2");
  for (auto [x, y] : {std::pair{a, b0}, {a, b1}, {t, b2}})
    for (int p = 1; p <= fabric.node(x).num_ports; ++p)
      if (fabric.peer({x, p}).node == y) fabric.disconnect({x, p});
  ASSERT_TRUE(connected(fabric));
  const Routed r(std::move(fabric));
  int unrouted = 0;
  for (int s : r.cas())
    for (int u : r.cas()) {
      if (s == u) continue;
      const Trace::Outcome outcome = r.trace_to(s, u).outcome;
      EXPECT_TRUE(outcome == Trace::Outcome::kDelivered || outcome == Trace::Outcome::kNoRoute);
      unrouted += outcome == Trace::Outcome::kNoRoute;
    }
  EXPECT_GT(unrouted, 0);
  EXPECT_EQ(r.trace_to(r.find_host("<1,0,0>"), r.find_host("<0,0,0>")).outcome, Trace::Outcome::kNoRoute);
  EXPECT_TRUE(std::ranges::any_of(
      r.routing.notes, [](const std::string& note) { return note.find("no deadlock-free route") != note.npos; }));
  for (const auto& [sl, edges] : dependencies(r, false, false)) EXPECT_FALSE(has_cycle(edges)) << "SL " << sl;
}

TEST(SchemeMikant, RefusesAFoldedClos) {
  const Fabric fabric = must(generate_kary(3, 3));
  const Detection detection = detect(fabric);
  const LidMap lids = *assign_lids(fabric, 0);
  EXPECT_FALSE(make_mikant_scheme()->route({fabric, detection, lids}).ok());
}

}  // namespace
}  // namespace ftclos
