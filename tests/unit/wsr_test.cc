#include "research/wsr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/path_trace.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "routing_checks.h"
#include "traffic/pattern_load.h"

namespace ftclos {
namespace {

Fabric ft8_2() { return generated(generate_ftree(8, 2)); }
Fabric ft8_3() { return generated(generate_ftree(8, 3)); }
Fabric rfc8_16_3() { return generated(generate_rfc(8, 16, 3, 5)); }

std::vector<PortRef> hops_of(const WsrRoutes& routes, int s, int d) {
  std::vector<PortRef> hops;
  for (int channel : routes.path(s, d)) hops.push_back(routes.port_of(channel));
  return hops;
}

// Hop distances from CA `source` to every node; CAs other than the source do not forward.
std::vector<int> hops_from(const Fabric& fabric, int source) {
  std::vector<int> dist(fabric.size(), -1);
  std::vector<int> queue{source};
  dist[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head];
    if (x != source && !fabric.node(x).is_switch()) continue;
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && dist[port.peer.node] < 0) {
        dist[port.peer.node] = dist[x] + 1;
        queue.push_back(port.peer.node);
      }
  }
  return dist;
}

// WSR the slow way: every shortest path enumerated in ascending port order,
// the first of the lightest kept; weights in a map keyed by egress port.
class EnumeratedWsr {
 public:
  explicit EnumeratedWsr(const Fabric& fabric) : fabric_(fabric), hosts_(pattern_hosts(fabric)) {}

  std::vector<std::vector<PortRef>> route_all() {
    std::vector<std::vector<PortRef>> paths;
    for (int s : hosts_) {
      for (int d : hosts_) {
        if (s == d) continue;
        dist_to_d_ = hops_from(fabric_, d);
        best_weight_ = std::numeric_limits<long>::max();
        current_.assign(1, PortRef{s, 1});
        extend(fabric_.peer({s, 1}).node, d, weight_[PortRef{s, 1}]);
        for (const PortRef& hop : best_) ++weight_[hop];
        paths.push_back(best_);
      }
    }
    return paths;
  }

 private:
  void extend(int at, int d, long weight) {
    const Node& node = fabric_.node(at);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef next = node.ports[p].peer;
      if (!next.valid() || dist_to_d_[next.node] != dist_to_d_[at] - 1) continue;
      if (next.node != d && !fabric_.node(next.node).is_switch()) continue;
      current_.push_back({at, p});
      const long w = weight + weight_[PortRef{at, p}];
      if (next.node == d) {
        if (w < best_weight_) {
          best_weight_ = w;
          best_ = current_;
        }
      } else {
        extend(next.node, d, w);
      }
      current_.pop_back();
    }
  }

  const Fabric& fabric_;
  const std::vector<int> hosts_;
  std::map<PortRef, long> weight_;
  std::vector<int> dist_to_d_;
  std::vector<PortRef> current_, best_;
  long best_weight_ = 0;
};

// Kuhn's augmenting paths: the size of a maximum matching of `pairs` (sources x destinations).
int kuhn_matching(const std::vector<SdPair>& pairs) {
  std::map<int, std::vector<int>> adj;
  for (const SdPair& p : pairs) adj[p.source].push_back(p.destination);
  std::map<int, int> owner;  // destination -> source
  int size = 0;
  for (const auto& [source, unused] : adj) {
    std::set<int> seen;
    auto augment = [&](auto&& self, int u) -> bool {
      for (int v : adj.at(u)) {
        if (!seen.insert(v).second) continue;
        if (!owner.contains(v) || self(self, owner[v])) {
          owner[v] = u;
          return true;
        }
      }
      return false;
    };
    size += augment(augment, source);
  }
  return size;
}

class WsrOn : public ::testing::TestWithParam<FabricCase> {};

TEST_P(WsrOn, DeliversEveryPairOnAShortestPath) {
  const Fabric fabric = GetParam().make();
  Result<WsrRoutes> routes = route_wsr(fabric);
  ASSERT_TRUE(routes.ok()) << routes.status().message();
  const int n = routes->host_count();
  ASSERT_EQ(routes->path_begin.size(), static_cast<size_t>(n) * (n - 1) + 1);
  for (int s = 0; s < n; ++s) {
    const std::vector<int> dist = hops_from(fabric, routes->hosts[s]);
    for (int d = 0; d < n; ++d) {
      if (s == d) continue;
      const std::vector<PortRef> hops = hops_of(*routes, s, d);
      ASSERT_EQ(static_cast<int>(hops.size()), dist[routes->hosts[d]]) << s << "->" << d;
      ASSERT_EQ(hops.front(), (PortRef{routes->hosts[s], 1}));
      for (size_t i = 0; i + 1 < hops.size(); ++i) ASSERT_EQ(fabric.peer(hops[i]).node, hops[i + 1].node);
      ASSERT_EQ(fabric.peer(hops.back()).node, routes->hosts[d]);
    }
  }
}

TEST_P(WsrOn, ChoosesWhatEnumeratingEveryShortestPathChooses) {
  const Fabric fabric = GetParam().make();
  Result<WsrRoutes> routes = route_wsr(fabric);
  ASSERT_TRUE(routes.ok()) << routes.status().message();
  const std::vector<std::vector<PortRef>> expected = EnumeratedWsr(fabric).route_all();
  size_t i = 0;
  for (int s = 0; s < routes->host_count(); ++s)
    for (int d = 0; d < routes->host_count(); ++d) {
      if (s == d) continue;
      ASSERT_EQ(hops_of(*routes, s, d), expected[i++]) << s << "->" << d;
    }
}

TEST_P(WsrOn, WorstCaseIsTheLargestMatchingOfAnyChannel) {
  const Fabric fabric = GetParam().make();
  Result<WsrRoutes> routes = route_wsr(fabric);
  ASSERT_TRUE(routes.ok()) << routes.status().message();
  std::map<PortRef, std::vector<SdPair>> by_channel;
  for (int s = 0; s < routes->host_count(); ++s)
    for (int d = 0; d < routes->host_count(); ++d)
      if (s != d)
        for (const PortRef& hop : hops_of(*routes, s, d)) by_channel[hop].push_back({s, d});
  int worst = 0;
  for (const auto& [channel, pairs] : by_channel) worst = std::max(worst, kuhn_matching(pairs));
  const PathSetContention contention = path_set_contention(routes->pairs_by_channel());
  EXPECT_EQ(contention.worst_case, worst);
  EXPECT_EQ(static_cast<int>(contention.witness.size()), worst);
  for (const SdPair& p : contention.witness) {
    const std::vector<int> channels(routes->path(p.source, p.destination).begin(),
                                    routes->path(p.source, p.destination).end());
    EXPECT_TRUE(std::ranges::find(channels, contention.worst_channel) != channels.end());
  }
}

INSTANTIATE_TEST_SUITE_P(Fabrics, WsrOn,
                         ::testing::Values(FabricCase{"ft8_2", ft8_2}, FabricCase{"ft8_3", ft8_3},
                                           FabricCase{"rfc8_16_3", rfc8_16_3},
                                           FabricCase{"ft8_3_shuffled", [] { return shuffle(ft8_3(), 3, true); }}),
                         [](const auto& info) { return info.param.name; });

// "Widest": FT(8,2)'s 32 hosts each send 28 pairs off their leaf, over 4 up links.
TEST(Wsr, SpreadsEverySourceEvenlyOverItsUpLinks) {
  const Fabric fabric = ft8_2();
  const WsrRoutes routes = *route_wsr(fabric);
  for (int s = 0; s < routes.host_count(); ++s) {
    std::map<int, int> per_up_link;
    for (int d = 0; d < routes.host_count(); ++d)
      if (d != s && routes.path(s, d).size() == 4) ++per_up_link[routes.path(s, d)[1]];
    EXPECT_EQ(per_up_link.size(), 4u) << s;
    for (const auto& [channel, pairs] : per_up_link) EXPECT_EQ(pairs, 7) << s;
  }
}

// Observed, and what Table I's WSR figures rest on: on an intact fat-tree in
// the paper's order, WSR ends up exactly where D-mod-K's tables send each pair.
class WsrOnFatTree : public ::testing::TestWithParam<FabricCase> {};

TEST_P(WsrOnFatTree, TakesDmodkPathsAndSoHasItsAuditedWorstCase) {
  Routed routed = route_fabric(**make_scheme("dmodk"), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const WsrRoutes routes = *route_wsr(routed.fabric);
  for (int s = 0; s < routes.host_count(); ++s)
    for (int d = 0; d < routes.host_count(); ++d) {
      if (s == d) continue;
      const Trace trace = ftclos::trace(routed.fabric, routed.lids, routed.routing.lfts, routes.hosts[s],
                                        routed.lids.base[routes.hosts[d]]);
      ASSERT_EQ(hops_of(routes, s, d), trace.hops) << s << "->" << d;
    }
  const AuditInput audit{routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, {}, {}};
  EXPECT_EQ(path_set_contention(routes.pairs_by_channel()).worst_case, worst_case_contention(audit).worst_case);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, WsrOnFatTree,
                         ::testing::Values(FabricCase{"ft8_2", ft8_2}, FabricCase{"ft8_3", ft8_3}),
                         [](const auto& info) { return info.param.name; });

TEST(Wsr, RefusesAHostWithoutASwitch) {
  Fabric fabric;
  const int a = *fabric.add_node(NodeType::kCa, "a", 1, 1);
  const int b = *fabric.add_node(NodeType::kCa, "b", 1, 2);
  ASSERT_TRUE(fabric.connect({a, 1}, {b, 1}).ok());
  Result<WsrRoutes> routes = route_wsr(fabric);
  ASSERT_FALSE(routes.ok());
  EXPECT_NE(routes.status().message().find("not cabled to a switch"), std::string::npos);
}

TEST(Wsr, RefusesAPairWithoutAPath) {
  Fabric fabric;
  const int s0 = *fabric.add_node(NodeType::kSwitch, "s0", 1, 1);
  const int s1 = *fabric.add_node(NodeType::kSwitch, "s1", 1, 2);
  const int a = *fabric.add_node(NodeType::kCa, "a", 1, 3);
  const int b = *fabric.add_node(NodeType::kCa, "b", 1, 4);
  ASSERT_TRUE(fabric.connect({a, 1}, {s0, 1}).ok());
  ASSERT_TRUE(fabric.connect({b, 1}, {s1, 1}).ok());
  Result<WsrRoutes> routes = route_wsr(fabric);
  ASSERT_FALSE(routes.ok());
  EXPECT_NE(routes.status().message().find("no path"), std::string::npos);
}

}  // namespace
}  // namespace ftclos
