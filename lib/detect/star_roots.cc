#include "detect/star_roots.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace ftclos {
namespace {

std::vector<int> switch_neighbors(const Fabric& fabric, int x) {
  std::vector<int> out;
  for (const Port& port : fabric.node(x).ports)
    if (port.peer.valid() && fabric.node(port.peer.node).is_switch()) out.push_back(port.peer.node);
  return out;
}

// BFS hops over switch cables from `sources`; -1 where none reaches.
std::vector<int> hops_from(const Fabric& fabric, const std::vector<int>& sources) {
  std::vector<int> hops(fabric.size(), -1);
  std::deque<int> queue;
  for (int s : sources) hops[s] = 0, queue.push_back(s);
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (const Port& port : fabric.node(x).ports) {
      const int y = port.peer.node;
      if (y < 0 || hops[y] >= 0 || !fabric.node(y).is_switch()) continue;
      hops[y] = hops[x] + 1;
      queue.push_back(y);
    }
  }
  return hops;
}

StarRoots ranked(const Fabric& fabric, std::vector<int> roots, std::string why) {
  std::ranges::sort(roots, [&](int a, int b) { return precedes_by_guid(fabric, a, b); });
  StarRoots out{std::move(roots), {}, std::move(why)};
  out.rank = hops_from(fabric, out.roots);
  return out;
}

// A legal path from S to T climbs to some Z, then descends: Z is in both
// up-closures. So S reaches T iff their up-closures share a switch, iff they
// share a sink (a switch with no upward cable). Returns the first pair of a
// switch with a CA and a switch that share none, or nothing.
std::optional<std::pair<int, int>> stranded_pair(const Fabric& fabric, const StarRoots& order) {
  std::vector<int> switches;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && order.rank[x] >= 0) switches.push_back(x);
  // Climbing order: from the top of the order down, so every upward
  // neighbour is done before the switches below it.
  std::ranges::sort(switches, [&](int a, int b) { return order.up(fabric, b, a); });
  std::vector<int> sink_index(fabric.size(), -1);
  int sinks = 0;
  for (int x : switches)
    if (std::ranges::none_of(switch_neighbors(fabric, x), [&](int y) { return order.up(fabric, x, y); }))
      sink_index[x] = sinks++;
  const size_t words = (sinks + 63) / 64;
  std::vector<uint64_t> reach(static_cast<size_t>(fabric.size()) * words, 0);
  auto row = [&](int x) { return &reach[static_cast<size_t>(x) * words]; };
  for (int x : switches) {
    if (sink_index[x] >= 0) row(x)[sink_index[x] / 64] |= uint64_t{1} << (sink_index[x] % 64);
    for (int y : switch_neighbors(fabric, x))
      if (order.up(fabric, x, y))
        for (size_t w = 0; w < words; ++w) row(x)[w] |= row(y)[w];
  }
  for (int s : switches) {
    const bool has_ca = std::ranges::any_of(fabric.node(s).ports, [&](const Port& port) {
      return port.peer.valid() && !fabric.node(port.peer.node).is_switch();
    });
    if (!has_ca) continue;
    for (int t : switches) {
      bool shared = false;
      for (size_t w = 0; w < words && !shared; ++w) shared = (row(s)[w] & row(t)[w]) != 0;
      if (!shared) return std::pair(s, t);
    }
  }
  return std::nullopt;
}

std::string stranded_text(const Fabric& fabric, const StarRoots& order, const std::pair<int, int>& pair) {
  return fmt::format("{} (\"{}\" has no legal path to \"{}\")", order.why, fabric.node(pair.first).display_name(),
                     fabric.node(pair.second).display_name());
}

// Every switch's eccentricity over switch cables (the most hops to a switch
// it reaches), by node; -1 for CAs. A breadth-first search per switch, 64 at
// a time: each switch holds one bit per source of the batch, so one pass
// over the cables advances 64 searches a hop (a search per switch was 1.6 s
// on a cut FT(48,3), where the top level strands a pair and this decides).
std::vector<int> eccentricities(const Fabric& fabric) {
  std::vector<int> switches, index(fabric.size(), -1);
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) {
      index[x] = static_cast<int>(switches.size());
      switches.push_back(x);
    }
  const size_t n = switches.size();
  std::vector<int> first{0}, neighbour;  // the switches cabled to each, by index
  for (int x : switches) {
    for (int y : switch_neighbors(fabric, x)) neighbour.push_back(index[y]);
    first.push_back(static_cast<int>(neighbour.size()));
  }
  std::vector<int> out(fabric.size(), -1);
  std::vector<uint64_t> seen(n), frontier(n), reached(n);
  for (size_t base = 0; base < n; base += 64) {
    const size_t batch = std::min<size_t>(64, n - base);
    std::ranges::fill(seen, 0);
    std::ranges::fill(frontier, 0);
    for (size_t i = 0; i < batch; ++i) seen[base + i] = frontier[base + i] = uint64_t{1} << i;
    for (int hops = 1;; ++hops) {
      std::ranges::fill(reached, 0);
      for (size_t v = 0; v < n; ++v)
        if (frontier[v])
          for (int k = first[v]; k < first[v + 1]; ++k) reached[neighbour[k]] |= frontier[v];
      uint64_t grew = 0;
      for (size_t v = 0; v < n; ++v) {
        reached[v] &= ~seen[v];
        seen[v] |= reached[v];
        grew |= reached[v];
      }
      if (!grew) break;
      for (size_t i = 0; i < batch; ++i)
        if (grew >> i & 1) out[switches[base + i]] = hops;
      frontier.swap(reached);
    }
    for (size_t i = 0; i < batch; ++i) out[switches[base + i]] = std::max(out[switches[base + i]], 0);
  }
  return out;
}

// The switch of least eccentricity over switch cables, lowest GUID among equals.
StarRoots central_root(const Fabric& fabric) {
  const std::vector<int> eccentricity = eccentricities(fabric);
  int best = -1, equals = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    if (eccentricity[x] < 0) continue;
    if (best < 0 || eccentricity[x] < eccentricity[best]) {
      best = x;
      equals = 1;
    } else if (eccentricity[x] == eccentricity[best]) {
      ++equals;
      if (precedes_by_guid(fabric, x, best)) best = x;
    }
  }
  if (best < 0) return {};
  return ranked(fabric, {best},
                fmt::format("the switch of least eccentricity ({} hops; {} switch{} with it, the lowest GUID taken)",
                            eccentricity[best], equals, equals == 1 ? "" : "es"));
}

}  // namespace

bool StarRoots::up(const Fabric& fabric, int from, int to) const {
  if (rank[to] != rank[from]) return rank[to] < rank[from];
  return precedes_by_guid(fabric, to, from);
}

std::vector<StarRoots> spread_star_roots(const Fabric& fabric, const Levels& levels, const StarRoots& first,
                                         int count) {
  std::vector<StarRoots> orders{first};
  if (first.roots.empty()) return orders;
  const int level = levels.of[first.roots.front()];
  const bool one_level = std::ranges::all_of(first.roots, [&](int r) { return levels.of[r] == level; });
  std::vector<int> candidates;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && (!one_level || levels.of[x] == level)) candidates.push_back(x);
  std::vector<int> taken = first.roots;
  while (static_cast<int>(orders.size()) < count) {
    const std::vector<int> hops = hops_from(fabric, taken);
    int farthest = -1;
    for (int x : candidates)
      if (hops[x] > 0 && (farthest < 0 || hops[x] > hops[farthest] ||
                          (hops[x] == hops[farthest] && precedes_by_guid(fabric, x, farthest))))
        farthest = x;
    if (farthest < 0) break;
    std::optional<StarRoots> order;
    if (one_level && level == levels.height && levels.height >= 2) {
      const std::vector<int> near_hops = hops_from(fabric, {farthest});
      std::vector<int> siblings;
      for (int x : candidates)
        if (near_hops[x] <= 2) siblings.push_back(x);
      StarRoots chassis = ranked(fabric, siblings, fmt::format("the {} top-level switches that share a child with \"{}\"",
                                                               siblings.size(), fabric.node(farthest).display_name()));
      if (siblings.size() > 1 && siblings.size() < candidates.size() && !stranded_pair(fabric, chassis))
        order = std::move(chassis);
    }
    if (!order) order = ranked(fabric, {farthest}, fmt::format("\"{}\"", fabric.node(farthest).display_name()));
    taken.insert(taken.end(), order->roots.begin(), order->roots.end());
    orders.push_back(std::move(*order));
  }
  return orders;
}

StarRoots choose_star_roots(const Fabric& fabric, const Levels& levels, const HostHints& hints) {
  std::vector<std::string> rejected;
  auto qualifies = [&](const StarRoots& order) {
    if (order.roots.empty()) return false;
    if (const auto pair = stranded_pair(fabric, order)) {
      rejected.push_back(stranded_text(fabric, order, *pair));
      return false;
    }
    return true;
  };
  auto with_rejected = [&](StarRoots order) {
    for (const std::string& text : rejected) order.why += "; not " + text;
    return order;
  };
  if (!hints.roots.empty()) {
    std::vector<int> roots;
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && hints.roots.contains(fabric.node(x).guid)) roots.push_back(x);
    StarRoots given = ranked(fabric, roots, fmt::format("the {} switch{} of the root GUID file", roots.size(),
                                                        roots.size() == 1 ? "" : "es"));
    if (qualifies(given)) return given;
  }
  if (levels.height >= 2) {
    std::vector<int> top;
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && levels.of[x] == levels.height) top.push_back(x);
    StarRoots tops = ranked(fabric, top, fmt::format("the top level (level {}, {} switch{})", levels.height,
                                                     top.size(), top.size() == 1 ? "" : "es"));
    if (qualifies(tops)) return with_rejected(std::move(tops));
    // Chassis of chassis (RhinoBased10K): the whole top level leaves pairs
    // apart, the top switches of one chassis (those sharing a child with
    // the first) do not, and spread the load over more than one root.
    const std::vector<int> hops = hops_from(fabric, {tops.roots.front()});
    std::vector<int> near;
    for (int x : tops.roots)
      if (hops[x] <= 2) near.push_back(x);
    if (near.size() > 1 && near.size() < tops.roots.size()) {
      StarRoots siblings = ranked(fabric, near, fmt::format("the {} top-level switches that share a child with \"{}\"",
                                                            near.size(), fabric.node(near.front()).display_name()));
      if (qualifies(siblings)) return with_rejected(std::move(siblings));
    }
  }
  return with_rejected(central_root(fabric));
}

}  // namespace ftclos
