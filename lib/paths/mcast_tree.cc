#include "paths/mcast_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace ftclos {
namespace {

SwitchOrder order_by(const Fabric& fabric, std::vector<int> switches, auto key_less) {
  std::ranges::sort(switches, key_less);
  SwitchOrder order;
  order.position.assign(fabric.size(), -1);
  for (size_t i = 0; i < switches.size(); ++i) order.position[switches[i]] = static_cast<int>(i);
  return order;
}

bool guid_name_less(const Fabric& fabric, int a, int b) {
  return std::tie(fabric.node(a).guid, fabric.node(a).name) < std::tie(fabric.node(b).guid, fabric.node(b).name);
}

// Per member switch, the member ports on it; fails for a CA port without a switch.
Result<std::vector<std::vector<uint8_t>>> member_ports(const Fabric& fabric, const std::vector<PortRef>& members) {
  std::vector<std::vector<uint8_t>> at(fabric.size());
  for (const PortRef member : members) {
    if (member.node < 0 || member.node >= fabric.size() || member.port > fabric.node(member.node).num_ports)
      return Status::Error(fmt::format("member port {}/{} is not in the fabric", member.node, member.port));
    if (fabric.node(member.node).is_switch()) {
      at[member.node].push_back(0);
      continue;
    }
    const PortRef peer = fabric.peer(member);
    if (!peer.valid() || !fabric.node(peer.node).is_switch())
      return Status::Error(fmt::format("member {} port {} is not cabled to a switch",
                                       fabric.node(member.node).display_name(), member.port));
    at[peer.node].push_back(static_cast<uint8_t>(peer.port));
  }
  return at;
}

// Breadth-first search from `root` over the switch cables `allowed` admits:
// per node its depth (-1 unreached) and the port toward its parent.
struct Bfs {
  std::vector<int> depth;
  std::vector<uint8_t> up_port;
};

Bfs search(const Fabric& fabric, int root, auto allowed) {
  Bfs bfs{std::vector<int>(fabric.size(), -1), std::vector<uint8_t>(fabric.size(), 0)};
  std::vector<int> queue{root};
  bfs.depth[root] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head];
    const Node& node = fabric.node(x);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || bfs.depth[peer.node] >= 0 || !fabric.node(peer.node).is_switch() || !allowed(x, peer.node))
        continue;
      bfs.depth[peer.node] = bfs.depth[x] + 1;
      bfs.up_port[peer.node] = static_cast<uint8_t>(peer.port);
      queue.push_back(peer.node);
    }
  }
  return bfs;
}

// How many switches the tree a search gives the member switches holds:
// each member switch's path to the root, merged.
int tree_size(const Fabric& fabric, const Bfs& bfs, const std::vector<int>& member_switches) {
  std::vector<bool> in_tree(fabric.size(), false);
  int size = 0;
  for (int x : member_switches)
    for (int at = x; !in_tree[at]; at = fabric.peer({at, bfs.up_port[at]}).node) {
      in_tree[at] = true;
      ++size;
      if (bfs.depth[at] == 0) break;
    }
  return size;
}

Result<McastTree> build_tree(const Fabric& fabric, const std::vector<PortRef>& members, int mlid, auto allowed,
                             const char* why_none) {
  const Result<std::vector<std::vector<uint8_t>>> at = member_ports(fabric, members);
  if (!at.ok()) return at.status();
  std::vector<int> member_switches;
  for (int x = 0; x < fabric.size(); ++x)
    if (!(*at)[x].empty()) member_switches.push_back(x);
  if (member_switches.empty()) return Status::Error(fmt::format("MLID 0x{:04X} has no members", mlid));

  // Candidates by (depth, size); ties rotate with the MLID.
  struct Candidate {
    int depth, size, root;
  };
  std::vector<Candidate> best;
  for (int root = 0; root < fabric.size(); ++root) {
    if (!fabric.node(root).is_switch()) continue;
    const Bfs bfs = search(fabric, root, allowed);
    int depth = 0;
    bool spans = true;
    for (int x : member_switches) {
      spans = spans && bfs.depth[x] >= 0;
      depth = std::max(depth, bfs.depth[x]);
    }
    if (!spans) continue;
    const Candidate candidate{depth, tree_size(fabric, bfs, member_switches), root};
    if (!best.empty() && std::tie(candidate.depth, candidate.size) > std::tie(best[0].depth, best[0].size)) continue;
    if (!best.empty() && std::tie(candidate.depth, candidate.size) < std::tie(best[0].depth, best[0].size)) best.clear();
    best.push_back(candidate);
  }
  if (best.empty()) return Status::Error(fmt::format("MLID 0x{:04X}: {}", mlid, why_none));

  const Candidate chosen = best[static_cast<size_t>(mlid) % best.size()];
  const Bfs bfs = search(fabric, chosen.root, allowed);
  McastTree tree;
  tree.root = chosen.root;
  tree.depth = chosen.depth;
  tree.forwarding.mlid = mlid;
  tree.forwarding.ports = *at;
  std::vector<bool> in_tree(fabric.size(), false);
  in_tree[chosen.root] = true;
  for (int x : member_switches)
    for (int child = x; !in_tree[child]; ) {
      in_tree[child] = true;
      const PortRef parent = fabric.peer({child, bfs.up_port[child]});
      tree.forwarding.ports[child].push_back(bfs.up_port[child]);
      tree.forwarding.ports[parent.node].push_back(static_cast<uint8_t>(parent.port));
      child = parent.node;
    }
  for (std::vector<uint8_t>& ports : tree.forwarding.ports) {
    std::ranges::sort(ports);
    ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  }
  return tree;
}

}  // namespace

SwitchOrder order_from_levels(const Fabric& fabric, const Levels& levels) {
  std::vector<int> switches;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && levels.of[x] >= 0) switches.push_back(x);
  return order_by(fabric, std::move(switches), [&](int a, int b) {
    if (levels.of[a] != levels.of[b]) return levels.of[a] > levels.of[b];
    return guid_name_less(fabric, a, b);
  });
}

SwitchOrder order_from_star(const Fabric& fabric, const StarRoots& star) {
  std::vector<int> switches;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && star.rank[x] >= 0) switches.push_back(x);
  // StarRoots::up(from, to) holds when `to` comes first: the same key.
  return order_by(fabric, std::move(switches), [&](int a, int b) { return star.up(fabric, b, a); });
}

SwitchOrder unicast_order(const Fabric& fabric, const Detection& detection, std::string_view scheme) {
  // layered's shortest paths keep no switch order; its trees take the
  // floor's, which the audit (--mcfdbs) must then check with its layers.
  if (scheme == "updown-star" || scheme == "layered") return order_from_star(fabric, detection.star);
  return order_from_levels(fabric, detection.levels);
}

Result<McastTree> build_mcast_tree(const Fabric& fabric, const SwitchOrder& order, const std::vector<PortRef>& members,
                                   int mlid) {
  return build_tree(fabric, members, mlid, [&](int from, int to) { return order.down(from, to); },
                    "no switch reaches every member going down the unicast order");
}

Result<McastTree> build_shortest_path_tree(const Fabric& fabric, const std::vector<PortRef>& members, int mlid) {
  Result<McastTree> tree = build_tree(fabric, members, mlid, [](int, int) { return true; },
                                      "no switch reaches every member");
  if (tree.ok()) tree->ordered = false;
  return tree;
}

}  // namespace ftclos
