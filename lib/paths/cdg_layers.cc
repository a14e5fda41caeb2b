#include "paths/cdg_layers.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ftclos {
namespace {

uint64_t key(const Dependency& dep) {
  return (uint64_t{static_cast<uint32_t>(dep.first)} << 32) | static_cast<uint32_t>(dep.second);
}

}  // namespace

Channels::Channels(const Fabric& fabric) : fabric_(fabric), first_(fabric.size() + 1, 0) {
  for (int x = 0; x < fabric.size(); ++x)
    first_[x + 1] = first_[x] + (fabric.node(x).is_switch() ? fabric.node(x).num_ports + 1 : 0);
}

int Channels::of(int x, int port) const {
  const Node& node = fabric_.node(x);
  if (!node.is_switch() || port < 1 || port > node.num_ports) return -1;
  const PortRef peer = node.ports[port].peer;
  if (!peer.valid() || !fabric_.node(peer.node).is_switch()) return -1;
  return first_[x] + port;
}

std::vector<Dependency> dependencies_toward(const Fabric& fabric, const Lfts& lfts, const Channels& channels, int lid) {
  std::vector<Dependency> deps;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || lid >= static_cast<int>(lfts.port[x].size())) continue;
    const int out = lfts.port[x][lid];
    const int first = channels.of(x, out);
    if (first < 0) continue;
    const int y = fabric.node(x).ports[out].peer.node;
    if (lid >= static_cast<int>(lfts.port[y].size())) continue;
    const int second = channels.of(y, lfts.port[y][lid]);
    if (second >= 0) deps.emplace_back(first, second);
  }
  return deps;
}

AcyclicLayer::AcyclicLayer(int channels)
    : next_(channels), prev_(channels), order_(channels), seen_(channels, 0) {
  std::iota(order_.begin(), order_.end(), 0);
}

AcyclicLayer::AcyclicLayer(std::vector<int> places)
    : next_(places.size()), prev_(places.size()), order_(std::move(places)), seen_(order_.size(), 0) {}

bool AcyclicLayer::try_add(const std::vector<Dependency>& deps) {
  std::vector<Dependency> added;
  for (const Dependency& dep : deps) {
    if (!known_.insert(key(dep)).second) continue;
    next_[dep.first].push_back(dep.second);
    prev_[dep.second].push_back(dep.first);
    added.push_back(dep);
    if (add(dep)) continue;
    // Each was pushed last on its lists; removing edges keeps the order topological.
    for (auto it = added.rbegin(); it != added.rend(); ++it) {
      next_[it->first].pop_back();
      prev_[it->second].pop_back();
      known_.erase(key(*it));
    }
    return false;
  }
  return true;
}

// The edge u -> v is in the lists already; false when it closes a cycle.
bool AcyclicLayer::add(const Dependency& dep) {
  const auto [u, v] = dep;
  if (order_[u] < order_[v]) return true;
  if (u == v || reaches_within(v, u, order_[u])) return false;
  collect_back(u, order_[v]);
  reorder();
  return true;
}

// Forward search from `from` among channels placed at most `upper`: whether
// it meets `target`. Leaves the channels it met in forward_.
bool AcyclicLayer::reaches_within(int from, int target, int upper) {
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
      if (seen_[to] || order_[to] > upper) continue;
      seen_[to] = 1;
      stack_.push_back(to);
    }
  }
  for (int c : forward_) seen_[c] = 0;
  for (int c : stack_) seen_[c] = 0;
  return found;
}

// Backward search from `from` among channels placed above `lower`, into backward_.
void AcyclicLayer::collect_back(int from, int lower) {
  backward_.clear();
  stack_.assign(1, from);
  seen_[from] = 1;
  while (!stack_.empty()) {
    const int at = stack_.back();
    stack_.pop_back();
    backward_.push_back(at);
    for (int to : prev_[at])
      if (!seen_[to] && order_[to] > lower) seen_[to] = 1, stack_.push_back(to);
  }
  for (int c : backward_) seen_[c] = 0;
}

// What reaches the new edge's tail moves before what its head reaches, in
// the places both sets held.
void AcyclicLayer::reorder() {
  auto by_order = [&](int a, int b) { return order_[a] < order_[b]; };
  std::ranges::sort(backward_, by_order);
  std::ranges::sort(forward_, by_order);
  std::vector<int> places;
  for (int c : backward_) places.push_back(order_[c]);
  for (int c : forward_) places.push_back(order_[c]);
  std::ranges::sort(places);
  size_t i = 0;
  for (const std::vector<int>* set : {&backward_, &forward_})
    for (int c : *set) order_[c] = places[i++];
}

void CdgLayers::open_first(std::vector<int> places) {
  layers_.clear();
  layers_.emplace_back(std::move(places));
}

int CdgLayers::place(const std::vector<Dependency>& deps, int first, int last) {
  for (int layer = first; layer <= last; ++layer) {
    while (count() <= layer) layers_.emplace_back(channels_);
    if (layers_[layer].try_add(deps)) return layer;
  }
  return -1;
}

}  // namespace ftclos
