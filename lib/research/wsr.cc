// WSR (wsr.h) without enumerating paths. A pair's shortest paths from switch
// a to switch b form a layered DAG: from each node, the ports to a switch one
// hop closer to b. Its lightest path is a DP over that DAG (cost to reach b,
// settled from b back to a), and the walk from a takes at each node the lowest
// port that stays on a lightest path. Consecutive pairs mostly share (a, b),
// so the DAG is rebuilt only when it changes; the DP runs per pair, because
// every pair changes the weights.
#include "research/wsr.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "traffic/pattern_load.h"

namespace ftclos {
namespace {

constexpr int64_t kMaxPairs = int64_t{1} << 24;

// Switch hop distances to `target`; -1 where it cannot be reached. CAs do not forward.
std::vector<int> distances_to(const Fabric& fabric, int target) {
  std::vector<int> dist(fabric.size(), -1);
  std::vector<int> queue{target};
  dist[target] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head];
    for (const Port& port : fabric.node(x).ports) {
      const int y = port.peer.node;
      if (!port.peer.valid() || !fabric.node(y).is_switch() || dist[y] >= 0) continue;
      dist[y] = dist[x] + 1;
      queue.push_back(y);
    }
  }
  return dist;
}

// The shortest paths between two switches, and the lightest of them.
class ShortestPathDag {
 public:
  ShortestPathDag(const Fabric& fabric, const std::vector<int>& first_channel)
      : fabric_(fabric), first_channel_(first_channel), local_(fabric.size(), -1) {}

  /// The DAG from `a` to the switch whose distances are `dist_to_b`; a must reach it.
  void build(int a, const std::vector<int>& dist_to_b) {
    for (int x : nodes_) local_[x] = -1;
    nodes_.assign(1, a);
    local_[a] = 0;
    edge_begin_.clear();
    edges_.clear();
    // Breadth-first, so nodes_ is in layers: every edge goes to a later node.
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const int x = nodes_[i];
      edge_begin_.push_back(static_cast<int>(edges_.size()));
      if (dist_to_b[x] == 0) continue;
      const Node& node = fabric_.node(x);
      for (int p = 1; p <= node.num_ports; ++p) {
        const int y = node.ports[p].peer.node;
        if (!node.ports[p].peer.valid() || !fabric_.node(y).is_switch() || dist_to_b[y] != dist_to_b[x] - 1) continue;
        if (local_[y] < 0) {
          local_[y] = static_cast<int>(nodes_.size());
          nodes_.push_back(y);
        }
        edges_.push_back({first_channel_[x] + p, local_[y]});
      }
    }
    edge_begin_.push_back(static_cast<int>(edges_.size()));
  }

  /// Appends the channels of the lightest path under `weight`, ties to the lowest port at each hop.
  void append_lightest(const std::vector<int>& weight, std::vector<int>& out) {
    // cost_[i]: the lightest weight from node i to b. b is the only node without edges.
    cost_.assign(nodes_.size(), 0);
    for (size_t i = nodes_.size(); i-- > 0;) {
      if (edge_begin_[i] == edge_begin_[i + 1]) continue;
      int64_t best = std::numeric_limits<int64_t>::max();
      for (int e = edge_begin_[i]; e < edge_begin_[i + 1]; ++e)
        best = std::min(best, weight[edges_[e].channel] + cost_[edges_[e].to]);
      cost_[i] = best;
    }
    for (int i = 0; edge_begin_[i] != edge_begin_[i + 1];) {
      for (int e = edge_begin_[i];; ++e) {
        if (weight[edges_[e].channel] + cost_[edges_[e].to] != cost_[i]) continue;
        out.push_back(edges_[e].channel);
        i = edges_[e].to;
        break;
      }
    }
  }

 private:
  struct Edge {
    int channel = 0;
    int to = 0;  // index in nodes_
  };

  const Fabric& fabric_;
  const std::vector<int>& first_channel_;
  std::vector<int> local_;       // per fabric node: its index in nodes_, -1 when not in the DAG
  std::vector<int> nodes_;       // fabric nodes, a first, b last
  std::vector<int> edge_begin_;  // per entry of nodes_, and the end; edges by ascending port
  std::vector<Edge> edges_;
  std::vector<int64_t> cost_;
};

}  // namespace

PortRef WsrRoutes::port_of(int channel) const {
  const auto above = std::ranges::upper_bound(first_channel, channel);
  const int node = static_cast<int>(above - first_channel.begin()) - 1;
  return {node, channel - first_channel[node]};
}

PairsByChannel WsrRoutes::pairs_by_channel() const {
  PairsByChannel out;
  out.begin.assign(channel_count() + 1, 0);
  for (int c : channels) ++out.begin[c + 1];
  for (int c = 0; c < channel_count(); ++c) out.begin[c + 1] += out.begin[c];
  out.pairs.resize(channels.size());
  std::vector<size_t> next(out.begin.begin(), out.begin.end() - 1);
  for (int s = 0; s < host_count(); ++s)
    for (int d = 0; d < host_count(); ++d)
      if (s != d)
        for (int c : path(s, d)) out.pairs[next[c]++] = {s, d};
  return out;
}

Result<WsrRoutes> route_wsr(const Fabric& fabric) {
  WsrRoutes out;
  out.hosts = pattern_hosts(fabric);
  const int n = out.host_count();
  if (int64_t{n} * (n - 1) > kMaxPairs)
    return Status::Error(fmt::format("WSR keeps the path of every pair: {} hosts make {} pairs, more than {}", n,
                                     int64_t{n} * (n - 1), kMaxPairs));
  std::vector<PortRef> entry;  // per host: the switch port its port 1 is cabled to
  for (int host : out.hosts) {
    const PortRef peer = fabric.peer({host, 1});
    if (!peer.valid() || !fabric.node(peer.node).is_switch())
      return Status::Error(
          fmt::format("WSR: port 1 of host {} is not cabled to a switch", fabric.node(host).display_name()));
    entry.push_back(peer);
  }
  out.first_channel = first_channels(fabric);

  std::vector<std::vector<int>> dist_to(fabric.size());  // per entry switch, once a destination needs it
  std::vector<int> weight(out.channel_count(), 0);
  ShortestPathDag dag(fabric, out.first_channel);
  std::pair<int, int> dag_ends{-1, -1};  // (a, b) of the DAG built last
  out.path_begin.reserve(static_cast<size_t>(n) * (n > 0 ? n - 1 : 0) + 1);
  out.path_begin.push_back(0);
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      if (d == s) continue;
      const int a = entry[s].node, b = entry[d].node;
      if (dist_to[b].empty()) dist_to[b] = distances_to(fabric, b);
      if (dist_to[b][a] < 0)
        return Status::Error(fmt::format("WSR: no path from {} to {}", fabric.node(out.hosts[s]).display_name(),
                                         fabric.node(out.hosts[d]).display_name()));
      if (dag_ends != std::pair{a, b}) {
        dag.build(a, dist_to[b]);
        dag_ends = {a, b};
      }
      const size_t first = out.channels.size();
      out.channels.push_back(out.channel({out.hosts[s], 1}));
      dag.append_lightest(weight, out.channels);
      out.channels.push_back(out.channel(entry[d]));
      for (size_t i = first; i < out.channels.size(); ++i) ++weight[out.channels[i]];
      out.path_begin.push_back(static_cast<int64_t>(out.channels.size()));
    }
  }
  return out;
}

}  // namespace ftclos
