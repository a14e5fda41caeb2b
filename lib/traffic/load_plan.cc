#include "traffic/load_plan.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace ftclos {
namespace {

// depth_ of a switch not reached yet, and of one on the path being resolved
// (reaching it again is a loop).
constexpr int kUnresolved = -1, kOnPath = -2;

}  // namespace

LoadPlan::LoadPlan(const LoadInput& input)
    : input_(input), lids_per_ca_(input.lids.lids_per_ca()), first_channel_(first_channels(input.fabric)) {
  const Fabric& fabric = input.fabric;
  std::vector<int> switch_of(fabric.size(), -1);
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    switch_of[x] = switch_count();
    switch_channel_.push_back(first_channel_[x]);
    switch_ports_.push_back(node.num_ports);
    const bool has_row = x < static_cast<int>(input.lfts.port.size());
    rows_.push_back(has_row ? input.lfts.port[x].data() : nullptr);
    row_size_.push_back(has_row ? static_cast<int>(input.lfts.port[x].size()) : 0);
  }
  node_at_.assign(first_channel_.back(), -1);
  switch_at_.assign(first_channel_.back(), -1);
  for (int x = 0; x < fabric.size(); ++x) {
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const int peer = fabric.node(x).ports[p].peer.node;
      node_at_[first_channel_[x] + p] = peer;
      switch_at_[first_channel_[x] + p] = peer < 0 ? -1 : switch_of[peer];
    }
  }
  sources_.resize(fabric.size());
  entry_number_.assign(switch_count(), -1);
  const OffsetChoice& offsets = input.offsets;
  for (int x = 0; x < fabric.size(); ++x) {
    if (fabric.node(x).is_switch() || fabric.node(x).num_ports < 1) continue;
    Source& source = sources_[x];
    source.ca_channel = first_channel_[x] + 1;
    source.peer = node_at_[source.ca_channel];
    source.entry = switch_at_[source.ca_channel];
    if (offsets.mode == OffsetChoice::Mode::kFixed) source.offset = offsets.offset % lids_per_ca_;
    if (offsets.mode == OffsetChoice::Mode::kPathBits && !offsets.path_bits.empty())
      source.offset = offsets.path_bits[x] % lids_per_ca_;
    if (source.entry >= 0 && entry_number_[source.entry] < 0) {
      entry_number_[source.entry] = static_cast<int>(entry_switches_.size());
      entry_switches_.push_back(source.entry);
    }
  }
  compiled_.resize(static_cast<size_t>(fabric.size()) * lids_per_ca_);
  seen_.assign(switch_count(), 0);
  depth_.assign(switch_count(), kUnresolved);
  position_.assign(switch_count(), 0);
}

std::optional<LoadPlan::Tree> LoadPlan::tree_to_sweep(int target, int offset, int entries) {
  Compiled& tree = compiled(target, offset);
  if (!tree.done) {
    // Compiling costs about a walk from every entry switch (less where
    // paths merge): worth it once walks would have cost as much.
    if (static_cast<size_t>(tree.walked) + entries < entry_switches_.size()) return std::nullopt;
    compile(tree, target, offset);
  }
  // A sweep visits every position once, walks about `depth` per entry switch.
  const size_t size = tree.end - tree.begin;
  if (static_cast<size_t>(entries) * tree.depth < size) return std::nullopt;
  return Tree{{channel_.data() + tree.begin, size},
              {next_.data() + tree.begin, size},
              {entry_position_.data() + tree.entries_begin, entry_switches_.size()}};
}

void LoadPlan::compile(Compiled& tree, int target, int offset) {
  const int lid = input_.lids.base[target] + offset;
  reached_.clear();
  for (int s : entry_switches_) resolve(s, target, lid);
  std::vector<std::pair<int, int>> by_depth;  // (depth, switch), farthest first
  for (int s : reached_)
    if (depth_[s] > 0) by_depth.emplace_back(depth_[s], s);
  std::ranges::sort(by_depth, std::greater<>());
  for (size_t i = 0; i < by_depth.size(); ++i) position_[by_depth[i].second] = static_cast<int>(i);
  tree.begin = static_cast<uint32_t>(channel_.size());
  for (const auto& [depth, s] : by_depth) {
    const int channel = switch_channel_[s] + port_toward(s, lid);
    channel_.push_back(channel);
    next_.push_back(static_cast<uint16_t>(depth == 1 ? by_depth.size() : position_[switch_at_[channel]]));
  }
  tree.end = static_cast<uint32_t>(channel_.size());
  tree.entries_begin = static_cast<uint32_t>(entry_position_.size());
  for (int s : entry_switches_)
    entry_position_.push_back(depth_[s] > 0 ? static_cast<uint16_t>(position_[s]) : Tree::kLost);
  tree.depth = static_cast<uint16_t>(by_depth.empty() ? 0 : by_depth.front().first);
  tree.done = true;
  for (int s : reached_) depth_[s] = kUnresolved;
}

// Follows the LFT from `from` until a switch resolved before, the target, or
// the traffic is lost; then every switch on the way gets its depth (hops to
// the target, 0 when lost), counted back from where the walk ended.
void LoadPlan::resolve(int from, int target, int lid) {
  path_.clear();
  int after = -1;  // hops to go after the path's last switch: 0 at the target, -1 when lost
  for (int s = from;;) {
    if (depth_[s] != kUnresolved) {  // resolved before, or on this path (a loop)
      after = depth_[s] > 0 ? depth_[s] : -1;
      break;
    }
    depth_[s] = kOnPath;
    path_.push_back(s);
    reached_.push_back(s);
    const int port = port_toward(s, lid);
    if (port == 0) break;
    const int channel = switch_channel_[s] + port;
    if (node_at_[channel] == target) {
      after = 0;
      break;
    }
    if (switch_at_[channel] < 0) break;  // uncabled, or another CA
    s = switch_at_[channel];
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    after = after < 0 ? -1 : after + 1;
    depth_[*it] = std::max(after, 0);
  }
}

}  // namespace ftclos
