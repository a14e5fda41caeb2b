#include "paths/cdg_layers.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

namespace ftclos {
namespace {

std::vector<int> updown_places(const Fabric& fabric, const StarRoots& star, const Channels& channels) {
  std::vector<int> places(channels.count(), -1);
  if (star.rank.size() != static_cast<size_t>(fabric.size())) {
    std::iota(places.begin(), places.end(), 0);
    return places;
  }
  std::vector<int> switches;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) switches.push_back(x);
  std::ranges::sort(switches, [&](int a, int b) { return star.up(fabric, b, a); });  // top first
  std::vector<int> sequence;
  for (const bool up : {true, false}) {
    for (size_t i = 0; i < switches.size(); ++i) {
      const int x = switches[up ? switches.size() - 1 - i : i];
      const Node& node = fabric.node(x);
      for (int port = 1; port <= node.num_ports; ++port)
        if (const int c = channels.of(x, port); c >= 0 && star.up(fabric, x, node.ports[port].peer.node) == up)
          sequence.push_back(c);
    }
  }
  for (size_t i = 0; i < sequence.size(); ++i) places[sequence[i]] = static_cast<int>(i);
  int next = static_cast<int>(sequence.size());
  for (int& place : places)
    if (place < 0) place = next++;  // ids of ports that lead to no switch
  return places;
}

}  // namespace

Channels::Channels(const Fabric& fabric, const StarRoots& star) : first_(fabric.size() + 1, 0) {
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    first_[x + 1] = first_[x] + (node.is_switch() ? node.num_ports + 1 : 0);
    if (node.is_switch()) switches_.push_back(x);
  }
  leads_to_switch_.assign(count(), 0);
  peer_.assign(count(), -1);
  from_.assign(count(), -1);
  for (int x : switches_) {
    const Node& node = fabric.node(x);
    for (int port = 1; port <= node.num_ports; ++port) {
      const PortRef peer = node.ports[port].peer;
      if (!peer.valid() || !fabric.node(peer.node).is_switch()) continue;
      leads_to_switch_[first_[x] + port] = 1;
      peer_[first_[x] + port] = peer.node;
      from_[first_[x] + port] = x;
    }
  }
  places_ = updown_places(fabric, star, *this);
}

std::vector<Dependency> dependencies_toward(const Lfts& lfts, const Channels& channels, int lid) {
  std::vector<Dependency> deps;
  for (int x : channels.switches()) {
    const int first = channels.of(x, lfts.at_or_none(x, lid));
    if (first < 0) continue;
    const int y = channels.peer(first);
    const int second = channels.of(y, lfts.at_or_none(y, lid));
    if (second >= 0) deps.emplace_back(first, second);
  }
  return deps;
}

void for_each_dependencies(const Lfts& lfts, const Channels& channels, const std::vector<int>& lids,
                           const std::function<bool(int lid, const std::vector<Dependency>& deps)>& take) {
  constexpr size_t kBlock = 64;
  std::vector<std::vector<Dependency>> deps(kBlock);
  for (size_t begin = 0; begin < lids.size(); begin += kBlock) {
    const size_t end = std::min(lids.size(), begin + kBlock);
    for (size_t k = begin; k < end; ++k) deps[k - begin].clear();
    for (int x : channels.switches())
      for (size_t k = begin; k < end; ++k) {
        const int first = channels.of(x, lfts.at_or_none(x, lids[k]));
        if (first < 0) continue;
        const int y = channels.peer(first);
        const int second = channels.of(y, lfts.at_or_none(y, lids[k]));
        if (second >= 0) deps[k - begin].emplace_back(first, second);
      }
    for (size_t k = begin; k < end; ++k)
      if (!take(lids[k], deps[k - begin])) return;
  }
}

std::vector<Dependency> dependencies_toward(const Lfts& lfts, const Channels& channels, const std::vector<int>& lids) {
  std::vector<Dependency> all;
  for_each_dependencies(lfts, channels, lids, [&](int, const std::vector<Dependency>& deps) {
    all.insert(all.end(), deps.begin(), deps.end());
    return true;
  });
  return all;
}

AcyclicLayer::AcyclicLayer(int channels) : AcyclicLayer([channels] {
  std::vector<int> places(channels);
  std::iota(places.begin(), places.end(), 0);
  return places;
}()) {}

namespace {

constexpr uint64_t kKeyGap = uint64_t{1} << 32;  // between neighbours' keys when (re)numbered

}  // namespace

AcyclicLayer::AcyclicLayer(std::vector<int> places)
    : next_(places.size()), known_(places.size() * 4, 0), key_(places.size()), before_(places.size(), -1),
      after_(places.size(), -1), seen_(places.size(), 0) {
  std::vector<int> at_place(places.size());
  for (size_t c = 0; c < places.size(); ++c) at_place[places[c]] = static_cast<int>(c);
  for (size_t place = 0; place < at_place.size(); ++place) {
    const int c = at_place[place];
    key_[c] = (place + 1) * kKeyGap;
    before_[c] = place > 0 ? at_place[place - 1] : -1;
    after_[c] = place + 1 < at_place.size() ? at_place[place + 1] : -1;
  }
  first_ = at_place.empty() ? -1 : at_place.front();
}

// 256 bits per channel, one per low byte of a successor: a channel's
// successors are the ports of one switch, fewer than 256 consecutive
// numbers, so their low bytes differ.
uint64_t& AcyclicLayer::known_word(const Dependency& dep, uint64_t& bit) {
  const size_t index = static_cast<size_t>(dep.first) * 256 + (static_cast<unsigned>(dep.second) & 255);
  bit = uint64_t{1} << (index % 64);
  return known_[index / 64];
}

bool AcyclicLayer::try_add(const std::vector<Dependency>& deps) {
  added_.clear();
  for (const Dependency& dep : deps) {
    uint64_t bit = 0;
    uint64_t& word = known_word(dep, bit);
    if (word & bit) continue;
    word |= bit;
    next_[dep.first].push_back(dep.second);
    added_.push_back(dep);
    if (add(dep)) continue;
    // Each was pushed last on its list; removing edges keeps the order topological.
    for (auto it = added_.rbegin(); it != added_.rend(); ++it) {
      next_[it->first].pop_back();
      // Two statements: in `known_word(*it, bit) &= ~bit` C++17 evaluates ~bit
      // first, the previous dependency's bit, and this one stayed marked held.
      uint64_t undo_bit = 0;
      uint64_t& undo_word = known_word(*it, undo_bit);
      undo_word &= ~undo_bit;
    }
    return false;
  }
  return true;
}

// The edge u -> v is in the lists already; false when it closes a cycle.
bool AcyclicLayer::add(const Dependency& dep) {
  const auto [u, v] = dep;
  if (key_[u] < key_[v]) return true;
  if (u == v || reaches_within(v, u, key_[u])) return false;
  move_past(u);
  return true;
}

// Forward search from `from` among channels placed at most `upper`: whether
// it meets `target`. Leaves the channels it met in forward_.
bool AcyclicLayer::reaches_within(int from, int target, uint64_t upper) {
  forward_.clear();
  stack_.assign(1, from);
  seen_[from] = 1;
  bool found = false;
  while (!stack_.empty() && !found) {
    const int at = stack_.back();
    stack_.pop_back();
    forward_.push_back(at);
    for (int to : next_[at]) {
      if (to == target) found = true;
      if (seen_[to] || key_[to] > upper) continue;
      seen_[to] = 1;
      stack_.push_back(to);
    }
  }
  for (int c : forward_) seen_[c] = 0;
  for (int c : stack_) seen_[c] = 0;
  return found;
}

// The channels the search from the head met (forward_), all placed between
// head and tail, move just past the tail, keeping their order. Still
// topological: nothing the head reaches is placed in that span outside
// forward_, so no dependency leads from forward_ back to a channel that stays.
void AcyclicLayer::move_past(int tail) {
  std::ranges::sort(forward_, [&](int a, int b) { return key_[a] < key_[b]; });
  for (int c : forward_) unlink(c);
  const uint64_t count = forward_.size();
  const bool room = after_[tail] >= 0 ? key_[after_[tail]] - key_[tail] > count
                                      : key_[tail] <= std::numeric_limits<uint64_t>::max() - (count + 1) * kKeyGap;
  if (!room) renumber();
  const uint64_t low = key_[tail];
  const uint64_t step = after_[tail] >= 0 ? (key_[after_[tail]] - low) / (count + 1) : kKeyGap;
  int at = tail;
  for (uint64_t i = 0; i < count; ++i) {
    const int c = forward_[i];
    key_[c] = low + step * (i + 1);
    link_after(at, c);
    at = c;
  }
}

void AcyclicLayer::unlink(int c) {
  if (before_[c] >= 0)
    after_[before_[c]] = after_[c];
  else
    first_ = after_[c];
  if (after_[c] >= 0) before_[after_[c]] = before_[c];
  before_[c] = after_[c] = -1;
}

void AcyclicLayer::link_after(int at, int c) {
  before_[c] = at;
  after_[c] = after_[at];
  if (after_[at] >= 0) before_[after_[at]] = c;
  after_[at] = c;
}

// Keys evenly apart again, in the list's order (where a gap ran out).
void AcyclicLayer::renumber() {
  uint64_t key = kKeyGap;
  for (int c = first_; c >= 0; c = after_[c], key += kKeyGap) key_[c] = key;
}

CdgLayers::CdgLayers(int channels) : places_(channels) { std::iota(places_.begin(), places_.end(), 0); }

int CdgLayers::place(const std::vector<Dependency>& deps, int first, int last) {
  for (int layer = first; layer <= last; ++layer) {
    while (count() <= layer) layers_.emplace_back(places_);
    if (layers_[layer].try_add(deps)) return layer;
  }
  return -1;
}

}  // namespace ftclos
