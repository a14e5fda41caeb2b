#include "audit/transition.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>

#include "audit/dependency_counts.h"
#include "core/workers.h"
#include "paths/cdg_layers.h"

namespace ftclos {
namespace {

constexpr int kVls = 16;
constexpr size_t kExamples = 3;

}  // namespace

std::vector<uint16_t> sls_by_lid(const LidMap& lids, const TablesSide& before, const TablesSide& after) {
  std::vector<uint16_t> sls(lids.max_lid + 1, 0);
  for (const TablesSide* side : {&before, &after}) {
    for (int lid = 0; lid <= lids.max_lid; ++lid)
      sls[lid] |= uint16_t{1} << (lid < static_cast<int>(side->dest_sl.size()) ? side->dest_sl[lid] & 15 : 0);
    for (const SlException& e : side->sl_exceptions)
      if (e.lid >= 0 && e.lid <= lids.max_lid) sls[e.lid] |= uint16_t{1} << (e.sl & 15);
  }
  return sls;
}

namespace {

// One VL's union channel dependency graph, each dependency kept once; a
// graph over a base adds only what the base lacks.
class UnionGraph {
 public:
  UnionGraph(int channels, const UnionGraph* base) : channels_(channels), base_(base) {}
  /// Over the counted dependencies on `vl` (a base kept between sweeps).
  UnionGraph(int channels, const DependencyCounts& counted, int vl)
      : channels_(channels), base_(nullptr), counted_(&counted), vl_(vl) {}

  bool empty() const { return added_.empty(); }
  bool has(int from, int to) const {
    if (base_ && base_->has(from, to)) return true;
    if (counted_ && counted_->has(vl_, from, to)) return true;
    if (known_.empty()) return false;
    const size_t bit = bit_of(from, to);
    return known_[bit / 64] & (uint64_t{1} << (bit % 64));
  }

  void add(int from, int to) {
    if (has(from, to)) return;
    if (known_.empty()) {  // allocated at the first dependency: most VLs carry none
      next_.resize(channels_);
      known_.assign(static_cast<size_t>(channels_) * 4, 0);
    }
    const size_t bit = bit_of(from, to);
    known_[bit / 64] |= uint64_t{1} << (bit % 64);
    next_[from].push_back(to);
    added_.push_back(from);
  }

  /// Adds `other`'s dependencies in the order they were added there: a
  /// graph built from a later block of LIDs joins this one as if its LIDs
  /// had come after this one's, so the lists and searches are the same.
  void absorb(const UnionGraph& other) {
    std::vector<size_t> taken(other.next_.size(), 0);  // per channel: its successors absorbed so far
    for (int from : other.added_) add(from, other.next_[from][taken[from]++]);
  }

  /// A cycle's channels, in order; empty when there is none. Alone, every
  /// channel is searched; over an acyclic base, a cycle passes a
  /// dependency added here, so only what those reach is.
  std::vector<int> cycle() const {
    if (empty()) return {};
    color_.assign(channels_, 0);
    parent_.assign(channels_, -1);
    for (int start : added_) {
      if (color_[start] != 0) continue;
      if (std::vector<int> found = search(start); !found.empty()) return found;
    }
    return {};
  }

 private:
  // 256 bits per channel, by the low byte of the successor: a channel's
  // successors are ports of one switch, fewer than 256 consecutive numbers.
  static size_t bit_of(int from, int to) {
    return static_cast<size_t>(from) * 256 + (static_cast<unsigned>(to) & 255);
  }

  template <class Visit>
  void for_next(int c, Visit visit) const {
    if (base_) base_->for_next(c, visit);
    if (counted_) counted_->for_next(vl_, c, visit);
    if (!next_.empty())
      for (int to : next_[c]) visit(to);
  }

  // Depth first from `start`: a channel met again on the current path closes a cycle.
  std::vector<int> search(int start) const {
    std::vector<std::pair<int, size_t>> stack{{start, 0}};  // channel, successors tried
    color_[start] = 1;
    while (!stack.empty()) {
      const int c = stack.back().first;
      size_t& tried = stack.back().second;
      int onward = -1;
      size_t k = 0;
      for_next(c, [&](int to) {
        if (onward < 0 && k++ >= tried && color_[to] != 2) onward = to;
      });
      if (onward < 0) {
        color_[c] = 2;
        stack.pop_back();
        continue;
      }
      tried = k;
      if (color_[onward] == 1) {  // back on the path: the cycle is onward .. c
        std::vector<int> cycle;
        for (int at = c; at != onward; at = parent_[at]) cycle.push_back(at);
        cycle.push_back(onward);
        std::ranges::reverse(cycle);
        return cycle;
      }
      parent_[onward] = c;
      color_[onward] = 1;
      stack.emplace_back(onward, 0);
    }
    return {};
  }

  int channels_;
  const UnionGraph* base_;
  const DependencyCounts* counted_ = nullptr;
  int vl_ = 0;
  std::vector<std::vector<int>> next_;
  std::vector<uint64_t> known_;
  std::vector<int> added_;  // the channels dependencies were added from, for the search's starts
  mutable std::vector<uint8_t> color_;  // 0 unseen, 1 on the path, 2 done
  mutable std::vector<int> parent_;
};

// One side's column for the LID at hand with its overrides laid over it
// (TablesSide::overrides): a lookup per entry read, not a search.
class ColumnOverlay {
 public:
  ColumnOverlay(const TablesSide& side, int nodes) : side_(side), set_(side.overrides ? nodes : 0, 0), port_(set_.size()) {}

  void start(int lid) {
    for (int x : touched_) set_[x] = 0;
    touched_.clear();
    lid_ = lid;
    if (!side_.overrides || lid >= static_cast<int>(side_.overrides->size())) return;
    for (const auto& [x, port] : (*side_.overrides)[lid]) {
      set_[x] = 1;
      port_[x] = port;
      touched_.push_back(x);
    }
  }
  uint8_t port(int x) const { return !set_.empty() && set_[x] ? port_[x] : side_.lfts.at_or_none(x, lid_); }

 private:
  const TablesSide& side_;
  std::vector<uint8_t> set_, port_;
  std::vector<int> touched_;
  int lid_ = 0;
};

// Adds the union dependencies toward one LID that leave switch x to the
// VLs in `on_vls`: `ports(x)` gives x's old and new port (equal when it
// stays); `keep(x, y)` whether a dependency from x through y counts.
template <class Ports, class Keep>
void add_dependencies_at(const Channels& channels, int x, Ports ports, Keep keep, const std::vector<int>& on_vls,
                         std::vector<UnionGraph>& vls) {
  const std::array<uint8_t, 2> here = ports(x);
  for (int side = 0; side < 2; ++side) {
    if (side == 1 && here[1] == here[0]) break;
    const int first = channels.of(x, here[side]);
    if (first < 0) continue;
    const int y = channels.peer(first);
    if (!keep(x, y)) continue;
    const std::array<uint8_t, 2> there = ports(y);
    for (int onward_side = 0; onward_side < 2; ++onward_side) {
      if (onward_side == 1 && there[1] == there[0]) break;
      const int second = channels.of(y, there[onward_side]);
      if (second < 0) continue;
      for (int v : on_vls) vls[v].add(first, second);
    }
  }
}

template <class Ports>
void add_dependencies_at(const Channels& channels, int x, Ports ports, const std::vector<int>& on_vls,
                         std::vector<UnionGraph>& vls) {
  add_dependencies_at(channels, x, ports, [](int, int) { return true; }, on_vls, vls);
}

// The same from every switch.
template <class Ports, class Keep>
void add_dependencies(const Channels& channels, Ports ports, Keep keep, const std::vector<int>& on_vls,
                      std::vector<UnionGraph>& vls) {
  for (int x : channels.switches()) add_dependencies_at(channels, x, ports, keep, on_vls, vls);
}

std::vector<int> vls_of(uint16_t sls) {
  std::vector<int> out;
  for (int v = 0; v < kVls; ++v)
    if (sls & (1u << v)) out.push_back(v);
  return out;
}

std::string port_name(const Fabric& fabric, int node, int port) {
  return fmt::format("{} port {}", fabric.node(node).display_name(), port);
}

}  // namespace

struct TransitionBase::Graphs {
  Channels channels;
  std::vector<std::vector<int>> into;  // [switch]: the channels that lead into it
  std::vector<UnionGraph> vls;
  std::vector<std::vector<int>> cycles;  // per VL: a cycle of the base alone, or empty
  std::unique_ptr<DependencyCounts> counted;  // the base as counts, when made from them (vls read them)
};

ChangedLids changed_lids(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after) {
  ChangedLids out{std::vector<std::vector<int>>(lids.max_lid + 1), std::vector<uint8_t>(lids.max_lid + 1, 0)};
  const std::vector<uint16_t> sls = sls_by_lid(lids, before, after);
  for (int lid = 1; lid <= lids.max_lid; ++lid) out.sl_moves[lid] = std::popcount(sls[lid]) > 1;
  // Blocks of switches in parallel, each into lists of its own, joined in
  // block order: every LID's list ascends as one pass would make it.
  const int workers = worker_count(fabric.size() / 64 + 1);
  std::vector<std::vector<std::vector<int>>> parts(workers, std::vector<std::vector<int>>(lids.max_lid + 1));
  for_each_block(fabric.size(), workers, [&](int w, long begin, long end) {
    for (int x = static_cast<int>(begin); x < end; ++x) {
      if (!fabric.node(x).is_switch()) continue;
      for (int lid = 1; lid <= lids.max_lid; ++lid)
        if (before.port(x, lid) != after.port(x, lid)) parts[w][lid].push_back(x);
    }
  });
  for (const std::vector<std::vector<int>>& part : parts)
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      out.switches[lid].insert(out.switches[lid].end(), part[lid].begin(), part[lid].end());
  return out;
}

TransitionBase::TransitionBase(const Fabric& fabric_in, const LidMap& lids_in, const TablesSide& side,
                               ChangedLids changed_in)
    : fabric(fabric_in),
      lids(lids_in),
      changed(std::move(changed_in)),
      graphs(new Graphs{Channels(fabric_in, StarRoots{}), {}, {}, {}, nullptr}) {
  const Channels& channels = graphs->channels;
  graphs->into.resize(fabric.size());
  for (int c = 0; c < channels.count(); ++c)  // numbers of ports that lead to no switch have no peer
    if (channels.peer(c) >= 0) graphs->into[channels.peer(c)].push_back(c);
  const std::vector<uint16_t> sls = sls_by_lid(lids, side, side);
  // Blocks of LIDs on every worker, each into graphs of its own, joined in
  // block order (UnionGraph::absorb): the graphs of one pass in LID order.
  constexpr int kBlock = 64;
  const long blocks = (lids.max_lid + kBlock - 1) / kBlock;
  const int workers = worker_count(blocks / 16 + 1);
  std::vector<std::vector<UnionGraph>> parts(workers);
  for (std::vector<UnionGraph>& part : parts)
    for (int v = 0; v < kVls; ++v) part.emplace_back(channels.count(), nullptr);
  const size_t nodes = fabric.size();
  for_each_block(blocks, workers, [&](int w, long first_block, long end_block) {
    // For a block of LIDs, each switch's port and whether its entry is the
    // same on every side, read a table line at a time (one LID at a time
    // reads one line of every table); then switch by switch, so that one
    // switch's dependencies for the whole block fall on the same few lines
    // of the graph's bit set (LID by LID they were a cache miss each).
    std::vector<uint8_t> block(static_cast<size_t>(kBlock) * nodes), stays(static_cast<size_t>(kBlock) * nodes, 1);
    std::vector<std::vector<int>> on_vls(kBlock);  // empty: a LID the base leaves out
    for (long b = first_block; b < end_block; ++b) {
      const int first_lid = 1 + static_cast<int>(b) * kBlock;
      const int last_lid = std::min(lids.max_lid, first_lid + kBlock - 1);
      for (int x : channels.switches())
        for (int lid = first_lid; lid <= last_lid; ++lid)
          block[static_cast<size_t>(lid - first_lid) * nodes + x] = side.lfts.at_or_none(x, lid);
      if (side.overrides)
        for (int lid = first_lid; lid <= last_lid && lid < static_cast<int>(side.overrides->size()); ++lid)
          for (const auto& [x, port] : (*side.overrides)[lid]) block[static_cast<size_t>(lid - first_lid) * nodes + x] = port;
      for (int lid = first_lid; lid <= last_lid; ++lid) {
        const bool left_out = lids.owner[lid] < 0 || changed.sl_moves[lid];
        on_vls[lid - first_lid] = left_out ? std::vector<int>{} : vls_of(sls[lid]);
        for (int x : changed.switches[lid]) stays[static_cast<size_t>(lid - first_lid) * nodes + x] = 0;
      }
      for (int x : channels.switches())
        for (int lid = first_lid; lid <= last_lid; ++lid) {
          if (on_vls[lid - first_lid].empty()) continue;
          const uint8_t* ports = &block[static_cast<size_t>(lid - first_lid) * nodes];
          const uint8_t* stay = &stays[static_cast<size_t>(lid - first_lid) * nodes];
          // A dependency whose two switches keep their entries; the others, per pair.
          add_dependencies_at(
              channels, x, [&](int z) { return std::array<uint8_t, 2>{ports[z], ports[z]}; },
              [&](int from, int to) { return stay[from] && stay[to]; }, on_vls[lid - first_lid], parts[w]);
        }
      for (int lid = first_lid; lid <= last_lid; ++lid)
        for (int x : changed.switches[lid]) stays[static_cast<size_t>(lid - first_lid) * nodes + x] = 1;
    }
  });
  graphs->vls = std::move(parts.front());
  for (size_t w = 1; w < parts.size(); ++w)
    for (int v = 0; v < kVls; ++v) graphs->vls[v].absorb(parts[w][v]);
  for (const UnionGraph& vl : graphs->vls) graphs->cycles.push_back(vl.cycle());
}

TransitionBase::TransitionBase(const Fabric& fabric_in, const LidMap& lids_in, const TablesSide& side,
                               ChangedLids changed_in, DependencyCounts of_side)
    : fabric(fabric_in),
      lids(lids_in),
      changed(std::move(changed_in)),
      graphs(new Graphs{of_side.channels(), {}, {}, {}, std::make_unique<DependencyCounts>(std::move(of_side))}) {
  const Channels& channels = graphs->channels;
  graphs->into.resize(fabric.size());
  for (int c = 0; c < channels.count(); ++c)
    if (channels.peer(c) >= 0) graphs->into[channels.peer(c)].push_back(c);
  // What the constructor above leaves out, taken out of the counts: every
  // dependency of a LID whose SL changes, and those that leave or enter a
  // switch whose entry changes.
  DependencyCounts& counts = *graphs->counted;
  for (int lid = 1; lid <= lids.max_lid; ++lid) {
    if (lids.owner[lid] < 0 || !changed.changing(lid)) continue;
    const int vl = (lid < static_cast<int>(side.dest_sl.size()) ? side.dest_sl[lid] : 0) & (kVls - 1);
    const auto port = [&](int x) { return side.port(x, lid); };
    counts.count_lid(vl, -1, port, changed.sl_moves[lid] ? nullptr : &changed.switches[lid]);
  }
  for (int v = 0; v < kVls; ++v) {
    graphs->vls.emplace_back(channels.count(), counts, v);
    graphs->cycles.push_back(counts.cycle(v));
  }
}

DependencyCounts counts_after(const TransitionBase& base, const TablesSide& after) {
  DependencyCounts counts = *base.graphs->counted;
  for (int lid = 1; lid <= base.lids.max_lid; ++lid) {
    if (base.lids.owner[lid] < 0 || !base.changed.changing(lid)) continue;
    const int vl = (lid < static_cast<int>(after.dest_sl.size()) ? after.dest_sl[lid] : 0) & (kVls - 1);
    const auto port = [&](int x) { return after.port(x, lid); };
    counts.count_lid(vl, 1, port, base.changed.sl_moves[lid] ? nullptr : &base.changed.switches[lid]);
  }
  return counts;
}

TransitionBase::~TransitionBase() = default;

const Channels& TransitionBase::channels() const { return graphs->channels; }

TransitionCheck check_transition(const TransitionBase& base, const TablesSide& before, const TablesSide& after) {
  TransitionCheck out;
  const Fabric& fabric = base.fabric;
  const LidMap& lids = base.lids;
  const Channels& channels = base.graphs->channels;
  const std::vector<uint16_t> sls = sls_by_lid(lids, before, after);
  std::vector<UnionGraph> vls;
  vls.reserve(kVls);
  for (int v = 0; v < kVls; ++v) vls.emplace_back(channels.count(), &base.graphs->vls[v]);
  auto next_switch = [&](int x, uint8_t port) {
    const int c = channels.of(x, port);
    return c < 0 ? -1 : channels.peer(c);
  };
  UnionLoopSearch loops(fabric.size());
  std::vector<uint8_t> listed(fabric.size(), 0);  // for the LID at hand: the switch's entry may change
  ColumnOverlay was(before, fabric.size()), now(after, fabric.size());
  for (int lid = 1; lid <= lids.max_lid; ++lid) {
    if (lids.owner[lid] < 0) continue;
    ++out.lids;
    if (!base.changed.changing(lid)) continue;
    was.start(lid);
    now.start(lid);
    auto ports = [&](int x) { return std::array<uint8_t, 2>{was.port(x), now.port(x)}; };
    const std::vector<int>& candidates = base.changed.switches[lid];
    long changed = 0;
    for (int x : candidates) changed += was.port(x) != now.port(x);
    out.changed_entries += changed;
    // A loop of the union next hops passes a changed entry: the old and the
    // new tables are loop-free (their own audits say so).
    const std::vector<int> loop = changed == 0 ? std::vector<int>{} : loops.find(candidates, [&](int x) {
      const std::array<uint8_t, 2> here = ports(x);
      return std::array<int, 2>{next_switch(x, here[0]), next_switch(x, here[1])};
    });
    if (!loop.empty() && out.looping_lids++ < static_cast<long>(kExamples)) {
      std::vector<std::string> names;
      for (int x : loop) names.push_back(fabric.node(x).display_name());
      names.push_back(fabric.node(loop.front()).display_name());
      out.examples.push_back(fmt::format("LID {:#x} ({}): old and new next hops loop: {}", lid,
                                         fabric.node(lids.owner[lid]).display_name(), fmt::join(names, " -> ")));
    }
    // The union dependencies, on the VL of every SL either side gives the
    // LID: all of them where its SL changes, else those the base left out
    // (at a listed switch, or into one).
    const std::vector<int> on_vls = vls_of(sls[lid]);
    if (base.changed.sl_moves[lid]) {
      add_dependencies(channels, ports, [](int, int) { return true; }, on_vls, vls);
      continue;
    }
    for (int x : candidates) listed[x] = 1;
    for (int y : candidates) {
      add_dependencies_at(channels, y, ports, on_vls, vls);
      for (int c : base.graphs->into[y]) {
        const int x = channels.from(c);
        const std::array<uint8_t, 2> here = ports(x);
        if (!listed[x] && (channels.of(x, here[0]) == c || channels.of(x, here[1]) == c))
          add_dependencies_at(channels, x, ports, on_vls, vls);
      }
    }
    for (int x : candidates) listed[x] = 0;
  }
  for (int v = 0; v < kVls; ++v) {
    const std::vector<int>& of_base = base.graphs->cycles[v];
    const std::vector<int> cycle = of_base.empty() ? vls[v].cycle() : of_base;
    if (cycle.empty()) continue;
    out.credit_loop_vls |= uint16_t{1} << v;
    std::vector<std::string> hops;
    for (int c : cycle) hops.push_back(port_name(fabric, channels.from(c), channels.port(c)));
    out.examples.push_back(fmt::format("VL {}: the old and new dependencies close a cycle of {} channels: {}", v,
                                       cycle.size(), fmt::join(hops, " -> ")));
  }
  return out;
}

TransitionCheck check_transition(const Fabric& fabric, const LidMap& lids, const TablesSide& before,
                                 const TablesSide& after) {
  const TransitionBase base(fabric, lids, before, changed_lids(fabric, lids, before, after));
  return check_transition(base, before, after);
}

}  // namespace ftclos
