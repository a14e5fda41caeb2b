#include "audit/transition.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

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

// One VL's union channel dependency graph, each dependency kept once.
class UnionGraph {
 public:
  explicit UnionGraph(int channels) : next_(channels), known_(static_cast<size_t>(channels) * 4, 0) {}

  void add(int from, int to) {
    // 256 bits per channel, by the low byte of the successor: a channel's
    // successors are ports of one switch, fewer than 256 consecutive numbers.
    const size_t bit = static_cast<size_t>(from) * 256 + (static_cast<unsigned>(to) & 255);
    uint64_t& word = known_[bit / 64];
    if (word & (uint64_t{1} << (bit % 64))) return;
    word |= uint64_t{1} << (bit % 64);
    next_[from].push_back(to);
  }

  /// A cycle's channels, in order; empty when the graph is acyclic (Kahn's
  /// sort, then a walk back along the edges among the channels left).
  std::vector<int> cycle() const {
    const int n = static_cast<int>(next_.size());
    std::vector<int> waiting(n, 0), ready;
    for (const std::vector<int>& out : next_)
      for (int to : out) ++waiting[to];
    for (int c = 0; c < n; ++c)
      if (waiting[c] == 0) ready.push_back(c);
    int sorted = 0;
    while (!ready.empty()) {
      const int c = ready.back();
      ready.pop_back();
      ++sorted;
      for (int to : next_[c])
        if (--waiting[to] == 0) ready.push_back(to);
    }
    if (sorted == n) return {};
    // Every channel left waits on another one left: walk back until one repeats.
    std::vector<int> prev(n, -1);
    for (int c = 0; c < n; ++c)
      if (waiting[c] > 0)
        for (int to : next_[c])
          if (waiting[to] > 0) prev[to] = c;
    int at = static_cast<int>(std::ranges::find_if(waiting, [](int w) { return w > 0; }) - waiting.begin());
    std::vector<int> seen(n, -1), walk;
    while (seen[at] < 0) {
      seen[at] = static_cast<int>(walk.size());
      walk.push_back(at);
      at = prev[at];
    }
    std::vector<int> cycle(walk.begin() + seen[at], walk.end());
    std::ranges::reverse(cycle);
    return cycle;
  }

 private:
  std::vector<std::vector<int>> next_;
  std::vector<uint64_t> known_;
};

std::string port_name(const Fabric& fabric, int node, int port) {
  return fmt::format("{} port {}", fabric.node(node).display_name(), port);
}

}  // namespace

TransitionCheck check_transition(const Fabric& fabric, const LidMap& lids, const TablesSide& before,
                                 const TablesSide& after) {
  TransitionCheck out;
  const Channels channels(fabric, StarRoots{});
  const std::vector<uint16_t> sls = sls_by_lid(lids, before, after);
  std::vector<UnionGraph> vls;
  vls.reserve(kVls);
  for (int v = 0; v < kVls; ++v) vls.emplace_back(channels.count());
  const std::vector<int>& switches = channels.switches();
  // Per switch, for the LID at hand: its old and new ports (equal when the entry stays).
  auto next_switch = [&](int x, uint8_t port) {
    const int c = channels.of(x, port);
    return c < 0 ? -1 : channels.peer(c);
  };
  // Each switch's old and new ports for a block of LIDs, read a table line
  // at a time (one LID at a time reads one line of every table).
  constexpr int kBlock = 64;
  std::vector<std::array<uint8_t, 2>> block(static_cast<size_t>(kBlock) * fabric.size());
  UnionLoopSearch loops(fabric.size());
  std::vector<int> on_vls;
  for (int first_lid = 1; first_lid <= lids.max_lid; first_lid += kBlock) {
    const int last_lid = std::min(lids.max_lid, first_lid + kBlock - 1);
    for (int x : switches)
      for (int lid = first_lid; lid <= last_lid; ++lid)
        block[static_cast<size_t>(lid - first_lid) * fabric.size() + x] = {before.lfts.at_or_none(x, lid),
                                                                            after.lfts.at_or_none(x, lid)};
    for (int lid = first_lid; lid <= last_lid; ++lid) {
      if (lids.owner[lid] < 0) continue;
      ++out.lids;
      const std::array<uint8_t, 2>* ports = &block[static_cast<size_t>(lid - first_lid) * fabric.size()];
      long changed = 0;
      for (int x : switches) changed += ports[x][0] != ports[x][1];
      out.changed_entries += changed;
      // A loop of the union next hops. A LID none of whose entries changes
      // loops only where both tables do, which their own audit says.
      const std::vector<int> loop = changed == 0 ? std::vector<int>{} : loops.find(switches, [&](int x) {
        return std::array<int, 2>{next_switch(x, ports[x][0]), next_switch(x, ports[x][1])};
      });
      if (!loop.empty() && out.looping_lids++ < static_cast<long>(kExamples)) {
        std::vector<std::string> names;
        for (int x : loop) names.push_back(fabric.node(x).display_name());
        names.push_back(fabric.node(loop.front()).display_name());
        out.examples.push_back(fmt::format("LID {:#x} ({}): old and new next hops loop: {}", lid,
                                           fabric.node(lids.owner[lid]).display_name(), fmt::join(names, " -> ")));
      }
      // The union dependencies, on the VL of every SL either side gives the LID.
      on_vls.clear();
      for (int v = 0; v < kVls; ++v)
        if (sls[lid] & (1u << v)) on_vls.push_back(v);
      for (int x : switches)
        for (int side = 0; side < 2; ++side) {
          if (side == 1 && ports[x][1] == ports[x][0]) break;
          const int first = channels.of(x, ports[x][side]);
          if (first < 0) continue;
          const int y = channels.peer(first);
          for (int onward_side = 0; onward_side < 2; ++onward_side) {
            if (onward_side == 1 && ports[y][1] == ports[y][0]) break;
            const int second = channels.of(y, ports[y][onward_side]);
            if (second < 0) continue;
            for (int v : on_vls) vls[v].add(first, second);
          }
        }
    }
  }
  for (int v = 0; v < kVls; ++v) {
    const std::vector<int> cycle = vls[v].cycle();
    if (cycle.empty()) continue;
    out.credit_loop_vls |= uint16_t{1} << v;
    std::vector<std::string> hops;
    for (int c : cycle) hops.push_back(port_name(fabric, channels.from(c), channels.port(c)));
    out.examples.push_back(fmt::format("VL {}: the old and new dependencies close a cycle of {} channels: {}", v,
                                       cycle.size(), fmt::join(hops, " -> ")));
  }
  return out;
}

}  // namespace ftclos
