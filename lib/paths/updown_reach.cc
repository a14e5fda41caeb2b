#include "paths/updown_reach.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/workers.h"

namespace ftclos {
namespace {

// The distinct switches cabled to `node` one level above (step +1) or below (-1).
std::vector<int> neighbours(const Fabric& fabric, const Levels& levels, int node, int step) {
  std::vector<int> out;
  for (const Port& port : fabric.node(node).ports) {
    const int peer = port.peer.valid() ? port.peer.node : -1;
    if (peer >= 0 && fabric.node(peer).is_switch() && levels.of[peer] == levels.of[node] + step) out.push_back(peer);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

constexpr int kMaxPort = 254;  // LFT entries are bytes and 255 is kNoPath

// Rows of the turn table, 16 bytes at a time (GCC/Clang vector extensions:
// -O2 does not vectorize loops of unknown length; these loops are most of
// building the table, 40 ms of FT(36,3)'s 300 ms under updown).
using Bytes = uint8_t __attribute__((vector_size(16)));

Bytes load16(const uint8_t* at) {
  Bytes v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

void store16(uint8_t* at, Bytes v) { std::memcpy(at, &v, sizeof v); }

// mine[t] = value wherever theirs[t] == equal.
void set_where_equal(uint8_t* mine, const uint8_t* theirs, uint8_t equal, uint8_t value, size_t n) {
  size_t t = 0;
  for (; t + 16 <= n; t += 16) {
    const Bytes hit = reinterpret_cast<Bytes>(load16(theirs + t) == equal);
    store16(mine + t, (load16(mine + t) & ~hit) | ((Bytes{} + value) & hit));
  }
  for (; t < n; ++t)
    if (theirs[t] == equal) mine[t] = value;
}

// mine[t] = min(mine[t], theirs[t]).
void take_min(uint8_t* mine, const uint8_t* theirs, size_t n) {
  size_t t = 0;
  for (; t + 16 <= n; t += 16) {
    const Bytes a = load16(mine + t), b = load16(theirs + t);
    const Bytes less = reinterpret_cast<Bytes>(b < a);
    store16(mine + t, (a & ~less) | (b & less));
  }
  for (; t < n; ++t) mine[t] = std::min(mine[t], theirs[t]);
}

bool is_port(const Node& node, int port) { return port >= 1 && port <= std::min(node.num_ports, kMaxPort); }

// LIDs routed through each port of switch `node`.
std::vector<int> port_loads(const Fabric& fabric, const LidMap& lids, int node, const std::vector<uint8_t>& table) {
  std::vector<int> load(fabric.node(node).num_ports + 1, 0);
  for (size_t lid = 1; lid < table.size() && lid < lids.owner.size(); ++lid)
    if (lids.owner[lid] >= 0 && is_port(fabric.node(node), table[lid])) ++load[table[lid]];
  return load;
}

// The LFT of switch `node`, grown to hold every LID (new entries kNoPath).
std::vector<uint8_t>& table_of(Lfts& lfts, const LidMap& lids, int node) {
  std::vector<uint8_t>& table = lfts.port[node];
  if (table.size() < static_cast<size_t>(lids.max_lid) + 1) table.resize(lids.max_lid + 1, kNoPath);
  return table;
}

}  // namespace

Exit exit_of(const Fabric& fabric, int node) {
  const Node& n = fabric.node(node);
  if (n.is_switch()) return {node, 0};
  if (n.num_ports < 1) return {};
  const PortRef leaf = n.ports[1].peer;
  if (!leaf.valid() || !fabric.node(leaf.node).is_switch()) return {};
  return {leaf.node, leaf.port};
}

std::vector<int> entry_switches(const Fabric& fabric, const LidMap& lids) {
  std::vector<int> out;
  std::vector<bool> seen(fabric.size(), false);
  for (int c = 0; c < fabric.size(); ++c) {
    if (fabric.node(c).is_switch() || c >= static_cast<int>(lids.base.size()) || lids.base[c] == 0) continue;
    const int entry = exit_of(fabric, c).target;
    if (entry >= 0 && !seen[entry]) out.push_back(entry);
    if (entry >= 0) seen[entry] = true;
  }
  return out;
}

std::vector<Exit> exits_by_lid(const Fabric& fabric, const LidMap& lids) {
  std::vector<Exit> exits(lids.owner.size());
  for (size_t lid = 1; lid < lids.owner.size(); ++lid)
    if (lids.owner[lid] >= 0) exits[lid] = exit_of(fabric, lids.owner[lid]);
  return exits;
}

UpDownReach::UpDownReach(const Fabric& fabric, const Levels& levels) : fabric_(fabric), levels_(levels) {
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch() && levels.of[i] >= 1) switches_.push_back(i);
  std::stable_sort(switches_.begin(), switches_.end(), [&](int a, int b) { return level(a) < level(b); });
  index_.assign(fabric.size(), -1);
  for (size_t i = 0; i < switches_.size(); ++i) index_[switches_[i]] = static_cast<int>(i);
  compute_turns();
  compute_detours();
}

void UpDownReach::compute_turns() {
  const size_t n = switches_.size();
  turn_.assign(n * n, kNever);
  std::vector<std::vector<int>> children, parents;
  for (int x : switches_) {
    children.push_back(neighbours(fabric_, levels_, x, -1));
    parents.push_back(neighbours(fabric_, levels_, x, +1));
  }
  // Each target's column is its own: blocks of columns on threads (FT(48,3): 8.3 million cells).
  for_each_block(static_cast<long>(n), worker_count(static_cast<long>(n) / 512 + 1), [&](int, long begin, long end) {
    const size_t width = static_cast<size_t>(end - begin);
    auto row = [&](int node) { return turn_.data() + static_cast<size_t>(index_[node]) * n + begin; };
    // down_reach, bottom-up: X reaches T going down iff X is T or a child of X does.
    for (size_t i = 0; i < n; ++i) {
      const int x = switches_[i];
      if (index_[x] >= begin && index_[x] < end) row(x)[index_[x] - begin] = static_cast<uint8_t>(level(x));
      for (int child : children[i])
        set_where_equal(row(x), row(child), static_cast<uint8_t>(level(child)), static_cast<uint8_t>(level(x)), width);
    }
    // Turning levels, top-down: where X is not above T it turns where its best
    // parent does (a parent's level is above X's, so X's own marks stay).
    for (size_t i = n; i-- > 0;)
      for (int parent : parents[i]) take_min(row(switches_[i]), row(parent), width);
  });
}

void UpDownReach::compute_detours() {
  const size_t n = switches_.size();
  detour_.assign(n, {});
  std::vector<bool> missed(n, false);  // by target: some switch cannot reach it up/down
  for (size_t x = 0; x < n; ++x)
    for (size_t t = 0; t < n; ++t)
      if (turn_[x * n + t] == kNever) missed[t] = true;
  // Switch cables by index, once, for the searches.
  std::vector<int> begin{0}, peers;
  for (int x : switches_) {
    for (const Port& port : fabric_.node(x).ports)
      if (port.peer.valid() && index_[port.peer.node] >= 0) peers.push_back(index_[port.peer.node]);
    begin.push_back(static_cast<int>(peers.size()));
  }
  // One breadth-first search per 64 missed targets at once: bit j of a
  // switch's word says target j reached it (FT(36,3): 324 top switches
  // miss each other; one search each took 25 ms, 10% of routing).
  std::vector<size_t> targets;
  for (size_t t = 0; t < n; ++t)
    if (missed[t]) targets.push_back(t);
  // Batches on threads, each with its own scratch: a batch writes only its targets' rows.
  const long batches = static_cast<long>((targets.size() + 63) / 64);
  for_each_block(batches, worker_count(batches), [&](int, long first_batch, long end_batch) {
    std::vector<uint64_t> seen(n), frontier(n), next(n);
    for (size_t first = first_batch * 64; first < std::min<size_t>(end_batch * 64, targets.size()); first += 64) {
      const size_t count = std::min<size_t>(64, targets.size() - first);
      std::fill(seen.begin(), seen.end(), 0);
      std::fill(frontier.begin(), frontier.end(), 0);
      for (size_t j = 0; j < count; ++j) {
        const size_t t = targets[first + j];
        detour_[t].assign(n, -1);
        detour_[t][t] = 0;
        seen[t] |= uint64_t{1} << j;
        frontier[t] |= uint64_t{1} << j;
      }
      for (int hop = 1;; ++hop) {
        bool grew = false;
        for (size_t x = 0; x < n; ++x) {
          uint64_t reached = 0;
          for (int k = begin[x]; k < begin[x + 1]; ++k) reached |= frontier[peers[k]];
          next[x] = reached & ~seen[x];
          for (uint64_t bits = next[x]; bits != 0; bits &= bits - 1)
            detour_[targets[first + std::countr_zero(bits)]][x] = hop;
          grew = grew || next[x] != 0;
        }
        if (!grew) break;
        for (size_t x = 0; x < n; ++x) seen[x] |= next[x];
        frontier.swap(next);
      }
    }
  });
}

int UpDownReach::detour_hops(int target, int at) const {
  const std::vector<int>& hops = detour_[index_[target]];
  return hops.empty() ? -1 : hops[index_[at]];
}

bool UpDownReach::allows(int at, const Exit& exit, int port) const {
  const int target = exit.target;
  if (target < 0 || index_[at] < 0 || index_[target] < 0) return false;
  if (at == target) return port == exit.port;
  if (!is_port(fabric_.node(at), port)) return false;
  const PortRef peer = fabric_.peer({at, port});
  if (!peer.valid() || index_[peer.node] < 0) return false;
  const int next = peer.node;
  // The turn table is symmetric (turn_levels_toward): read from the
  // target's row, the calls of one LID's column stay in one row.
  const uint8_t* toward = row(target);
  const uint8_t here = toward[index_[at]], there = toward[index_[next]];
  if (here == level(at)) return level(next) == level(at) - 1 && there == level(next);
  if (here != kNever) return level(next) == level(at) + 1 && there != kNever;
  if (!may_detour(exit)) return false;
  const int hops = detour_hops(target, at);
  return hops > 0 && detour_hops(target, next) == hops - 1;
}

void BestPorts::fill(int at) {
  at_ = at;
  std::fill(by_target_.begin(), by_target_.end(), PortMask{});
  detour_.assign(by_target_.size(), false);
  if (reach_.index_[at] < 0) return;
  const size_t n = by_target_.size();
  const int mine = reach_.level(at);
  const uint8_t* here = reach_.row(at);
  const Node& node = reach_.fabric_.node(at);
  const int ports = std::min(node.num_ports, kMaxPort);
  // Branch-free loops over whole rows: the bulk of routing a large fabric.
  for (int p = 1; p <= ports; ++p) {
    const PortRef peer = node.ports[p].peer;
    if (!peer.valid() || reach_.index_[peer.node] < 0) continue;
    const int theirs = reach_.level(peer.node);
    const uint8_t* there = reach_.row(peer.node);
    const uint64_t bit = uint64_t{1} << (p % 64);
    const int word = p / 64;
    if (theirs == mine - 1) {  // down, where `at` is above the target and so is the child
      for (size_t t = 0; t < n; ++t) by_target_[t][word] |= bit & -uint64_t{here[t] == mine && there[t] == theirs};
    } else if (theirs == mine + 1) {  // up, to a parent that turns as low as `at` can
      for (size_t t = 0; t < n; ++t)
        by_target_[t][word] |=
            bit & -uint64_t{here[t] != mine && here[t] != UpDownReach::kNever && there[t] == here[t]};
    }
  }
  for (size_t t = 0; t < n; ++t) {
    const std::vector<int>& hops = reach_.detour_[t];
    if (here[t] != UpDownReach::kNever || hops.empty()) continue;
    detour_[t] = true;
    const int left = hops[reach_.index_[at]];
    for (int p = 1; p <= ports && left > 0; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (peer.valid() && reach_.index_[peer.node] >= 0 && hops[reach_.index_[peer.node]] == left - 1)
        by_target_[t][p / 64] |= uint64_t{1} << (p % 64);
    }
  }
}

const BestPorts::PortMask* BestPorts::mask_toward(const Exit& exit) const {
  if (exit.target < 0 || exit.target == at_) return nullptr;
  const int t = reach_.index_[exit.target];
  if (t < 0 || (detour_[t] && !reach_.may_detour(exit))) return nullptr;
  return &by_target_[t];
}

std::vector<uint8_t> BestPorts::toward(const Exit& exit) const {
  std::vector<uint8_t> ports;
  if (const PortMask* mask = mask_toward(exit))
    for (int word = 0; word < 4; ++word)
      for (uint64_t bits = (*mask)[word]; bits != 0; bits &= bits - 1)
        ports.push_back(static_cast<uint8_t>(word * 64 + std::countr_zero(bits)));
  return ports;
}

uint8_t BestPorts::least_loaded(const Exit& exit, const std::vector<int>& load) const {
  if (exit.target >= 0 && exit.target == at_) return static_cast<uint8_t>(exit.port);
  const PortMask* mask = mask_toward(exit);
  int best = kNoPath;
  for (int word = 0; word < 4 && mask; ++word)
    for (uint64_t bits = (*mask)[word]; bits != 0; bits &= bits - 1) {
      const int port = word * 64 + std::countr_zero(bits);
      if (best == kNoPath || load[port] < load[best]) best = port;
    }
  return static_cast<uint8_t>(best);
}

void route_switch_lids(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  BestPorts best(reach);
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    std::vector<uint8_t>& table = table_of(lfts, input.lids, x);
    std::vector<int> load = port_loads(fabric, input.lids, x, table);
    best.fill(x);
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      const int owner = input.lids.owner[lid];
      if (owner < 0 || !fabric.node(owner).is_switch()) continue;
      table[lid] = best.least_loaded(exits[lid], load);
      if (is_port(fabric.node(x), table[lid])) ++load[table[lid]];
    }
  }
}

int repair_dead_ports(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  routing.lfts.port.resize(fabric.size());
  BestPorts best(reach);
  int changed = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    std::vector<uint8_t>& table = table_of(routing.lfts, input.lids, x);
    std::vector<int> load = port_loads(fabric, input.lids, x, table);
    bool filled = false;  // only switches with something to move need their best ports
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      if (input.lids.owner[lid] < 0) continue;
      const uint8_t old = table[lid];
      if (reach.allows(x, exits[lid], old)) continue;
      if (!filled) best.fill(x);
      filled = true;
      const uint8_t now = best.least_loaded(exits[lid], load);
      if (now == old) continue;
      if (is_port(node, old)) --load[old];
      if (is_port(node, now)) ++load[now];
      table[lid] = now;
      ++changed;
    }
  }
  routing.rerouted += changed;
  return changed;
}

int repair_dead_ports(const RoutingInput& input, Routing& routing) {
  const UpDownReach reach(input.fabric, input.detection.levels);
  return repair_dead_ports(input, reach, routing);
}

}  // namespace ftclos
