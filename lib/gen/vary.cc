// Real clusters are not textbook fabrics: storage hosts hang off the spines,
// switches die, cables get swapped, HCAs are cabled on port 2 or on both
// ports. `vary` does these things to a generated fabric, so recognition and
// routing can be tested against exactly known changes.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <random>
#include <set>
#include <vector>

#include "core/aggregation_node.h"
#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// Hop distance of every switch from the nearest host (hosts 0, unreachable
// -1). SHARP ANs hang on every switch and are no hosts: they start no count.
std::vector<int> switch_levels(const Fabric& fabric) {
  std::vector<int> level(fabric.size(), -1);
  std::deque<int> queue;
  for (int i = 0; i < fabric.size(); ++i) {
    if (fabric.node(i).is_switch()) continue;
    level[i] = 0;
    if (!is_aggregation_node(fabric.node(i))) queue.push_back(i);
  }
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (const Port& port : fabric.node(x).ports) {
      const int y = port.peer.node;
      if (y < 0 || level[y] >= 0 || !fabric.node(y).is_switch()) continue;
      level[y] = level[x] + 1;
      queue.push_back(y);
    }
  }
  return level;
}

void give_ports(Node& node, int num_ports) {
  node.num_ports = num_ports;
  node.ports.resize(num_ports + 1);
}

uint64_t next_host_guid(const Fabric& fabric) {
  uint64_t last = host_guid(-1);
  for (const Node& node : fabric.nodes())
    if (!node.is_switch()) last = std::max(last, node.guid);
  return last + 0x100;
}

Status add_io_hosts(Fabric& fabric, int per_switch, int at_level, VariationLog& log) {
  const std::vector<int> level = switch_levels(fabric);
  const int top = *std::max_element(level.begin(), level.end());
  if (at_level > top) return Status::Error(fmt::format("no switch level {}: the fabric has {}", at_level, top));
  const int chosen = at_level == 0 ? top : at_level;
  const int switches = fabric.size();
  for (int s = 0; s < switches; ++s) {
    if (!fabric.node(s).is_switch() || level[s] != chosen) continue;
    const int first = fabric.node(s).num_ports + 1;
    if (first - 1 + per_switch > 254)
      return Status::Error(fmt::format("\"{}\" cannot take {} more ports", fabric.node(s).name, per_switch));
    give_ports(fabric.node(s), first - 1 + per_switch);
    for (int k = 0; k < per_switch; ++k) {
      const uint64_t guid = next_host_guid(fabric);
      const std::string name = fmt::format("IO-{}-{}", fabric.node(s).name, k);
      Result<int> host = fabric.add_node(NodeType::kCa, name, 1, guid);
      if (!host.ok()) return host.status();
      fabric.node(*host).ports[1].guid = guid + 1;
      if (Status status = fabric.connect({*host, 1}, {s, first + k}); !status.ok()) return status;
      log.io_hosts.push_back(name);
    }
  }
  return Status::Ok();
}

Status lose_switches(Fabric& fabric, int count, int at_level, std::mt19937_64& rng, VariationLog& log) {
  const std::vector<int> level = switch_levels(fabric);
  std::vector<int> candidates;
  for (int s = 0; s < fabric.size(); ++s)
    if (fabric.node(s).is_switch() && (at_level == 0 || level[s] == at_level)) candidates.push_back(s);
  if (count > static_cast<int>(candidates.size()))
    return Status::Error(fmt::format("cannot lose {} switches: there are {}{}", count, candidates.size(),
                                     at_level ? fmt::format(" at level {}", at_level) : ""));
  for (int i = 0; i < count; ++i) std::swap(candidates[i], candidates[i + draw_below(rng, candidates.size() - i)]);
  std::vector<bool> lost(fabric.size(), false);
  for (int i = 0; i < count; ++i) lost[candidates[i]] = true;
  // A host all of whose cables end on lost switches is lost with them.
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (node.is_switch()) continue;
    bool reachable = false;
    for (int p = 1; p <= node.num_ports; ++p) reachable |= node.ports[p].peer.valid() && !lost[node.ports[p].peer.node];
    lost[x] = !reachable;
  }
  std::vector<int> kept;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!lost[x]) kept.push_back(x);
    else if (fabric.node(x).is_switch()) log.lost_switches.push_back(fabric.node(x).name);
  }
  fabric = renumber(fabric, kept);
  return Status::Ok();
}

bool cabled_together(const Fabric& fabric, int a, int b) {
  for (const Port& port : fabric.node(a).ports)
    if (port.peer.node == b) return true;
  return false;
}

Status swap_cables(Fabric& fabric, int pairs, std::mt19937_64& rng, VariationLog& log) {
  const std::vector<int> level = switch_levels(fabric);
  std::vector<std::pair<PortRef, PortRef>> uplinks;  // (lower end, upper end)
  for (int s = 0; s < fabric.size(); ++s) {
    if (!fabric.node(s).is_switch()) continue;
    for (int p = 1; p <= fabric.node(s).num_ports; ++p) {
      const PortRef peer = fabric.node(s).ports[p].peer;
      if (peer.valid() && fabric.node(peer.node).is_switch() && level[peer.node] == level[s] + 1)
        uplinks.push_back({{s, p}, peer});
    }
  }
  const bool two_levels = *std::max_element(level.begin(), level.end()) == 2;
  std::set<int> touched;  // switches of earlier swaps: each switch in one swap at most, so the fix is unique
  for (int done = 0, tries = 0; done < pairs; ++tries) {
    if (tries > 1000 * (pairs + 1))
      return Status::Error(fmt::format("cannot find {} pairs of cables to swap", pairs));
    const auto [low1, up1] = uplinks[draw_below(rng, uplinks.size())];
    const auto [low2, up2] = uplinks[draw_below(rng, uplinks.size())];
    // Swapping must create two cables the fabric does not have, between
    // switches of the same levels, on switches no earlier swap touched. In
    // two levels every leaf reaches every spine: there a swapped cable
    // doubles one that is there, and its own pair goes without.
    if (level[low1.node] != level[low2.node] || low1.node == low2.node || up1.node == up2.node) continue;
    if (!two_levels && (cabled_together(fabric, low1.node, up2.node) || cabled_together(fabric, low2.node, up1.node)))
      continue;
    if (touched.count(low1.node) || touched.count(low2.node) || touched.count(up1.node) || touched.count(up2.node))
      continue;
    fabric.disconnect(low1);
    fabric.disconnect(low2);
    fabric.connect(low1, up2);
    fabric.connect(low2, up1);
    touched.insert({low1.node, low2.node, up1.node, up2.node});
    for (auto [low, up] : {std::pair{low1, up2}, std::pair{low2, up1}})
      log.swapped.push_back({fabric.node(low.node).name, low.port, fabric.node(up.node).name, up.port});
    ++done;
  }
  return Status::Ok();
}

// Every compute host on port 2 of a two-port HCA, port 1 dark; attached
// hosts stay on port 1 (and the simulator's diags can start from them:
// umad2sim shows a CA's port 1 only).
void move_to_port_2(Fabric& fabric, const VariationLog& log) {
  for (int x = 0; x < fabric.size(); ++x) {
    Node& node = fabric.node(x);
    if (node.is_switch() || node.num_ports != 1) continue;
    if (std::ranges::find(log.io_hosts, node.name) != log.io_hosts.end()) continue;
    const PortRef peer = node.ports[1].peer;
    give_ports(node, 2);
    node.ports[2].guid = node.guid + 2;
    if (!peer.valid()) continue;
    fabric.disconnect({x, 1});
    fabric.connect({x, 2}, peer);
  }
}

// Host i of the first half takes the cable of host i of the second half on
// its port 2; the second half is gone.
void make_dual_rail(Fabric& fabric) {
  std::vector<int> hosts;
  for (int x = 0; x < fabric.size(); ++x)
    if (!fabric.node(x).is_switch() && fabric.node(x).num_ports == 1) hosts.push_back(x);
  const size_t half = hosts.size() / 2;
  std::vector<bool> gone(fabric.size(), false);
  for (size_t i = 0; i < half; ++i) {
    const int keep = hosts[i], drop = hosts[half + i];
    const PortRef peer = fabric.node(drop).ports[1].peer;
    give_ports(fabric.node(keep), 2);
    fabric.node(keep).ports[2].guid = fabric.node(keep).guid + 2;
    if (peer.valid()) {
      fabric.disconnect({drop, 1});
      fabric.connect({keep, 2}, peer);
    }
    gone[drop] = true;
  }
  std::vector<int> kept;
  for (int x = 0; x < fabric.size(); ++x)
    if (!gone[x]) kept.push_back(x);
  fabric = renumber(fabric, kept);
}

// Cables inside a level make a fabric no folded Clos: what vendors do to
// shorten paths, and what the up*/down* floor routes (paths/updown_star.h).
Status add_level_cables(Fabric& fabric, int count, int at_level, std::mt19937_64& rng, VariationLog& log) {
  const std::vector<int> level = switch_levels(fabric);
  std::vector<int> candidates;
  for (int s = 0; s < fabric.size(); ++s)
    if (fabric.node(s).is_switch() && level[s] == at_level) candidates.push_back(s);
  if (candidates.size() < 2)
    return Status::Error(fmt::format("cables inside level {} need two switches there, it has {}", at_level,
                                     candidates.size()));
  for (int k = 0; k < count; ++k) {
    int a = candidates[draw_below(rng, candidates.size())];
    int b = a;
    while (b == a) b = candidates[draw_below(rng, candidates.size())];
    for (int s : {a, b})
      if (fabric.node(s).num_ports >= 254)
        return Status::Error(fmt::format("\"{}\" cannot take another port", fabric.node(s).name));
    give_ports(fabric.node(a), fabric.node(a).num_ports + 1);
    give_ports(fabric.node(b), fabric.node(b).num_ports + 1);
    const PortRef pa{a, fabric.node(a).num_ports}, pb{b, fabric.node(b).num_ports};
    if (Status status = fabric.connect(pa, pb); !status.ok()) return status;
    log.level_cables.push_back({fabric.node(a).name, pa.port, fabric.node(b).name, pb.port});
  }
  return Status::Ok();
}

void set_rates(Fabric& fabric, LinkRate rate) {
  for (int x = 0; x < fabric.size(); ++x)
    for (Port& port : fabric.node(x).ports)
      if (port.peer.valid()) port.rate = rate;
}

Status slow_down(Fabric& fabric, int count, LinkRate slow, std::mt19937_64& rng, VariationLog& log) {
  const std::vector<int> level = switch_levels(fabric);
  std::vector<PortRef> uplinks;  // lower ends of switch cables
  for (int s = 0; s < fabric.size(); ++s)
    for (int p = 1; fabric.node(s).is_switch() && p <= fabric.node(s).num_ports; ++p) {
      const PortRef peer = fabric.node(s).ports[p].peer;
      if (peer.valid() && fabric.node(peer.node).is_switch() && level[peer.node] > level[s]) uplinks.push_back({s, p});
    }
  if (count > static_cast<int>(uplinks.size()))
    return Status::Error(fmt::format("{} slow links asked for, but there are {} switch cables", count, uplinks.size()));
  std::shuffle(uplinks.begin(), uplinks.end(), rng);
  uplinks.resize(count);
  std::sort(uplinks.begin(), uplinks.end());
  for (PortRef low : uplinks) {
    const PortRef up = fabric.peer(low);
    fabric.port(low).rate = fabric.port(up).rate = slow;
    log.slow.push_back({fabric.node(low.node).name, low.port, fabric.node(up.node).name, up.port});
  }
  return Status::Ok();
}

}  // namespace

Result<VariationLog> vary(Fabric& fabric, const Variations& variations) {
  const Variations& v = variations;
  if (v.io_hosts < 0 || v.io_level < 0 || v.lost_switches < 0 || v.lost_level < 0 || v.swapped_pairs < 0 ||
      v.slow_links < 0 || v.level_cables < 0)
    return Status::Error("variation counts must not be negative");
  if (v.hca_port != 1 && v.hca_port != 2) return Status::Error(fmt::format("HCA port {}: 1 or 2 expected", v.hca_port));
  if (v.hca_port == 2 && v.dual_rail) return Status::Error("dual rail uses both HCA ports; the HCA port must be 1");
  if (v.slow_links > 0 && (!v.rate.known() || !v.slow_rate.known() || v.slow_rate.gbps() >= v.rate.gbps()))
    return Status::Error("slow links need a rate for the others and a slower one for them");
  Fabric varied = fabric;
  VariationLog log;
  std::mt19937_64 rng(v.seed);
  if (v.io_hosts > 0)
    if (Status status = add_io_hosts(varied, v.io_hosts, v.io_level, log); !status.ok()) return status;
  if (v.lost_switches > 0)
    if (Status status = lose_switches(varied, v.lost_switches, v.lost_level, rng, log); !status.ok()) return status;
  if (v.swapped_pairs > 0)
    if (Status status = swap_cables(varied, v.swapped_pairs, rng, log); !status.ok()) return status;
  if (v.level_cables > 0)
    if (Status status = add_level_cables(varied, v.level_cables, v.level_cables_level, rng, log); !status.ok())
      return status;
  if (v.hca_port == 2) move_to_port_2(varied, log);
  if (v.dual_rail) make_dual_rail(varied);
  if (v.rate.known()) set_rates(varied, v.rate);
  if (v.slow_links > 0)
    if (Status status = slow_down(varied, v.slow_links, v.slow_rate, rng, log); !status.ok()) return status;
  fabric = std::move(varied);
  return log;
}

}  // namespace ftclos
