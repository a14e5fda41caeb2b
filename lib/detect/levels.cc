#include "detect/levels.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>

#include "core/aggregation_node.h"
#include "detect/host_hints.h"

namespace ftclos {
namespace {

bool hinted(const std::set<uint64_t>& guids, const Node& node) {
  if (guids.empty()) return false;
  return std::ranges::any_of(hint_guids(node), [&](uint64_t guid) { return guids.contains(guid); });
}

struct Load {
  int hosts = 0;
  int cabled = 0;
};

// Compute CAs and cabled ports per switch; a CA the hints call I/O does not count.
std::vector<Load> switch_loads(const Fabric& fabric, const HostHints& hints) {
  std::vector<Load> load(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid()) continue;
      ++load[x].cabled;
      const Node& other = fabric.node(peer.node);
      if (other.is_switch() || hinted(hints.io, other) || is_aggregation_node(other)) continue;
      if (hints.compute.empty() || hinted(hints.compute, other)) ++load[x].hosts;
    }
  }
  return load;
}

// A hostless switch cabled to one switch only (however many cables)
// forwards between that switch and its AN, never between two switches: it
// is a leaf (a management leaf left empty, hung off its own spine), not one
// level above its only neighbour.
bool hostless_dead_end(const Fabric& fabric, int x) {
  int only = -1;
  for (const Port& port : fabric.node(x).ports) {
    const int peer = port.peer.node;
    if (!port.peer.valid() || peer == x) continue;
    if (!fabric.node(peer).is_switch()) {
      if (!is_aggregation_node(fabric.node(peer))) return false;
      continue;
    }
    if (only >= 0 && only != peer) return false;
    only = peer;
  }
  return only >= 0;
}

// hosts/cabled of a < that of b, without division.
bool smaller_share(const Load& a, const Load& b) {
  return static_cast<long>(a.hosts) * b.cabled < static_cast<long>(b.hosts) * a.cabled;
}

// Hostless leaves (storage or management leaves without hosts, director
// line boards left empty) sit one level above the spines they hang from
// when levels count from the hosts: at the top. Two more guesses put them
// back at level 1: every top switch whose switch neighbours are all one
// level below, those of them with fewer neighbours than most top switches
// (thin beside the cores of a deeper tree), and those whose neighbours are
// all parents of one leaf with hosts (an edge switch of a director site
// cabled like its siblings: a director's fabric chips have line chips of
// one chassis below, a leaf one line chip in each). The fit decides.
void add_hostless_leaf_guesses(const Fabric& fabric, const std::vector<Load>& load,
                               std::vector<std::vector<bool>>& guesses) {
  const Levels levels = levels_from_leaves(fabric, guesses.front());
  if (levels.height < 3) return;
  std::vector<int> hanging;
  std::map<int, int> tops_by_degree;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != levels.height) continue;
    int neighbours = 0;
    bool all_below = true;
    for (const Port& port : fabric.node(x).ports) {
      if (!port.peer.valid() || !fabric.node(port.peer.node).is_switch()) continue;
      ++neighbours;
      all_below &= levels.of[port.peer.node] == 2;
    }
    ++tops_by_degree[neighbours];
    if (all_below && load[x].hosts == 0) hanging.push_back(x);
  }
  if (hanging.empty()) return;
  const int usual = std::ranges::max_element(tops_by_degree, {}, [](const auto& e) { return e.second; })->first;
  auto switch_neighbours = [&](int x) {
    std::set<int> out;
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && fabric.node(port.peer.node).is_switch()) out.insert(port.peer.node);
    return out;
  };
  std::set<std::set<int>> leaf_parents;
  for (int x = 0; x < fabric.size(); ++x)
    if (guesses.front()[x]) leaf_parents.insert(switch_neighbours(x));
  std::vector<bool> all = guesses.front(), thin = guesses.front(), like_leaves = guesses.front();
  for (int x : hanging) {
    all[x] = true;
    int neighbours = 0;
    for (const Port& port : fabric.node(x).ports)
      neighbours += port.peer.valid() && fabric.node(port.peer.node).is_switch();
    thin[x] = neighbours < usual;
    const std::set<int> above = switch_neighbours(x);
    like_leaves[x] = std::ranges::any_of(leaf_parents, [&](const std::set<int>& parents) {
      return std::ranges::includes(parents, above);
    });
  }
  guesses.push_back(all);
  if (thin != all && thin != guesses.front()) guesses.push_back(thin);
  if (like_leaves != all && like_leaves != thin && like_leaves != guesses.front()) guesses.push_back(like_leaves);
}

}  // namespace

bool Levels::is_io_host(int node) const { return std::binary_search(io_hosts.begin(), io_hosts.end(), node); }
bool Levels::is_management(int node) const { return std::binary_search(management.begin(), management.end(), node); }

int attached_level(const Fabric& fabric, const Levels& levels, int ca) {
  for (const Port& port : fabric.node(ca).ports)
    if (port.peer.valid()) return levels.of[port.peer.node];
  return 0;
}

Levels levels_from_leaves(const Fabric& fabric, const std::vector<bool>& leaf) {
  Levels levels;
  levels.of.assign(fabric.size(), -1);
  std::deque<int> queue;
  for (int i = 0; i < fabric.size(); ++i) {
    if (!fabric.node(i).is_switch()) {
      levels.of[i] = 0;
    } else if (leaf[i]) {
      levels.of[i] = 1;
      levels.height = 1;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    const int current = queue.front();
    queue.pop_front();
    for (const Port& port : fabric.node(current).ports) {
      const PortRef peer = port.peer;
      if (!peer.valid() || levels.of[peer.node] >= 0) continue;
      levels.of[peer.node] = levels.of[current] + 1;
      levels.height = std::max(levels.height, levels.of[peer.node]);
      queue.push_back(peer.node);
    }
  }
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    if (node.is_switch()) continue;
    bool on_leaf = false, cabled = false;
    for (const Port& port : node.ports) {
      if (!port.peer.valid()) continue;
      cabled = true;
      on_leaf |= fabric.node(port.peer.node).is_switch() && leaf[port.peer.node];
    }
    if (!cabled) continue;
    if (is_aggregation_node(node)) levels.aggregation_nodes.push_back(i);
    if (!on_leaf || is_aggregation_node(node)) levels.io_hosts.push_back(i);
  }
  return levels;
}

std::vector<std::vector<bool>> leaf_guesses(const Fabric& fabric, const HostHints& hints) {
  const std::vector<Load> load = switch_loads(fabric, hints);
  std::vector<bool> leaf(fabric.size(), false);
  for (int x = 0; x < fabric.size(); ++x)
    leaf[x] = fabric.node(x).is_switch() && (load[x].hosts > 0 || hostless_dead_end(fabric, x)) &&
              !hinted(hints.roots, fabric.node(x));
  const std::vector<bool> every_host_switch = leaf;
  // Leaves cabled together: the smaller share of hosts is not a leaf. In a
  // folded Clos the switch graph is bipartite by level parity, so this
  // clears storage on every even level.
  for (bool changed = true; changed;) {
    changed = false;
    for (int x = 0; x < fabric.size(); ++x) {
      if (!leaf[x]) continue;
      for (const Port& port : fabric.node(x).ports) {
        const int y = port.peer.node;
        if (y < 0 || y == x || !leaf[y]) continue;
        const bool x_goes = smaller_share(load[x], load[y]) ||
                            (!smaller_share(load[y], load[x]) && precedes_by_guid(fabric, y, x));
        leaf[x_goes ? x : y] = false;
        changed = true;
        if (x_goes) break;
      }
    }
  }
  std::vector<std::vector<bool>> guesses{leaf};
  add_hostless_leaf_guesses(fabric, load, guesses);
  if (!hints.empty()) return guesses;  // the operator said which CAs compute
  std::vector<int> hosts;
  for (int x = 0; x < fabric.size(); ++x)
    if (leaf[x]) hosts.push_back(load[x].hosts);
  if (hosts.empty()) return guesses;
  std::nth_element(hosts.begin(), hosts.begin() + hosts.size() / 2, hosts.end());
  const int median = hosts[hosts.size() / 2];
  std::vector<bool> full = leaf;
  for (int x = 0; x < fabric.size(); ++x)
    if (full[x] && load[x].hosts < median) full[x] = false;
  if (full != leaf) guesses.push_back(full);
  // Switches with hosts cabled together may be what the fabric is (MiKANT(k, 2)).
  if (every_host_switch != leaf) guesses.push_back(every_host_switch);
  return guesses;
}

Levels compute_levels(const Fabric& fabric, const HostHints& hints) {
  return levels_from_leaves(fabric, leaf_guesses(fabric, hints).front());
}

Direction direction(const Fabric& fabric, const Levels& levels, PortRef port) {
  const PortRef peer = fabric.peer(port);
  if (!peer.valid()) return Direction::kNone;
  const int mine = levels.of[port.node];
  const int theirs = levels.of[peer.node];
  if (theirs < mine) return Direction::kDown;
  if (theirs > mine) return Direction::kUp;
  return Direction::kSide;
}

bool is_folded_clos(const Fabric& fabric, const Levels& levels) {
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef peer = fabric.peer({x, p});
      if (peer.valid() && fabric.node(peer.node).is_switch() && std::abs(levels.of[peer.node] - levels.of[x]) != 1)
        return false;
    }
  }
  return true;
}

const char* direction_name(Direction direction) {
  switch (direction) {
    case Direction::kUp: return "up";
    case Direction::kDown: return "down";
    case Direction::kSide: return "side";
    case Direction::kNone: break;
  }
  return "none";
}

}  // namespace ftclos

