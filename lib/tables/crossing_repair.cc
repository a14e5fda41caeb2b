#include "tables/crossing_repair.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "core/workers.h"
#include "detect/levels.h"
#include "paths/lid_columns.h"
#include "paths/switch_routes_legal.h"
#include "paths/updown_reach.h"
#include "tables/previous_tables.h"

namespace ftclos {
namespace {

// 16 entries at a time (GCC/Clang vector extensions, as schemes/switch_traffic.cc):
// the scan reads each of FT(48,3)'s 88 million entries once.
using Bytes = uint8_t __attribute__((vector_size(16)));

bool any_set(Bytes flags) {
  uint64_t words[2];
  std::memcpy(words, &flags, sizeof words);
  return (words[0] | words[1]) != 0;
}

// What the scan of the last tables finds, per LID.
struct Touched {
  std::vector<uint8_t> crossing;  // an entry leads into a lost cable, or nowhere
  std::vector<uint8_t> gone;      // no owner now, yet some switch has an entry for it
};

// Marks the LIDs of switch x's table whose entry leads nowhere on the
// fabric as it is now (a port without a cable, port 0 or no port) and the
// LIDs without an owner it still routes; `owned` is 0xFF per owned LID.
void scan_table(const Fabric& fabric, const LidMap& lids, const std::vector<uint8_t>& owned, int x,
                const std::vector<uint8_t>& table, Touched& touched) {
  const Node& node = fabric.node(x);
  std::vector<uint8_t> dead;
  for (int port = 1; port <= node.num_ports; ++port)
    if (!node.ports[port].peer.valid()) dead.push_back(static_cast<uint8_t>(port));
  const auto leads_nowhere = [&](uint8_t port) {
    return port == 0 || port > node.num_ports || std::ranges::find(dead, port) != dead.end();
  };
  const size_t count = owned.size();
  Bytes beyond;
  for (int lane = 0; lane < 16; ++lane) beyond[lane] = static_cast<uint8_t>(node.num_ports);
  for (size_t first = 0; first < count; first += 16) {
    const size_t lanes = std::min<size_t>(16, count - first);
    bool look = lanes < 16 || first == 0;  // LID 0, and the tail, entry by entry
    if (!look) {
      Bytes entries, mask;
      std::memcpy(&entries, table.data() + first, sizeof entries);
      std::memcpy(&mask, owned.data() + first, sizeof mask);
      Bytes flags = reinterpret_cast<Bytes>((entries == 0) | (entries > beyond)) & mask;
      for (uint8_t port : dead) flags |= reinterpret_cast<Bytes>(entries == port) & mask;
      flags |= reinterpret_cast<Bytes>(entries != kNoPath) & ~mask;
      look = any_set(flags);
    }
    if (!look) continue;
    for (size_t lid = std::max<size_t>(first, 1); lid < first + lanes; ++lid) {
      const int owner = lids.owner[lid];
      if (owner < 0)
        touched.gone[lid] |= table[lid] != kNoPath;
      else if (owner != x && leads_nowhere(table[lid]))
        touched.crossing[lid] = 1;
    }
  }
}

// The scan over every switch's table, blocks of switches in parallel.
Touched scan_tables(const Fabric& fabric, const LidMap& lids, const Lfts& previous) {
  const size_t count = static_cast<size_t>(lids.max_lid) + 1;
  std::vector<uint8_t> owned(count, 0);
  for (size_t lid = 1; lid < count; ++lid) owned[lid] = lids.owner[lid] >= 0 ? 0xFF : 0;
  const int workers = worker_count(fabric.size() / 64 + 1);
  std::vector<Touched> parts(workers, Touched{std::vector<uint8_t>(count, 0), std::vector<uint8_t>(count, 0)});
  for_each_block(fabric.size(), workers, [&](int w, long begin, long end) {
    for (int x = static_cast<int>(begin); x < end; ++x)
      if (fabric.node(x).is_switch()) scan_table(fabric, lids, owned, x, previous.port[x], parts[w]);
  });
  Touched touched = std::move(parts.front());
  for (size_t w = 1; w < parts.size(); ++w)
    for (size_t lid = 0; lid < count; ++lid) {
      touched.crossing[lid] |= parts[w].crossing[lid];
      touched.gone[lid] |= parts[w].gone[lid];
    }
  return touched;
}

// Routes one LID again from its last column (CA LIDs and switch LIDs): an entry the
// up/down rule still allows stays (it lies on a shortest up/down path, so
// kept and new entries compose into such paths and cannot loop); every
// other becomes a hole, and a hole from which an up/down path exists takes
// an allowed port toward a switch that delivers, round by round, the ports
// tried rotated by LID so that the filled entries spread. Holes left are
// switches no up/down path leads from: switches' own routes, which
// make_switch_routes_legal completes. Scratch is kept across LIDs.
class ColumnRepairer {
 public:
  ColumnRepairer(const Fabric& fabric, const UpDownReach& reach)
      : fabric_(fabric), reach_(reach), state_(fabric.size(), kUnknown) {
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && reach.index(x) >= 0) switches_.push_back(x);
  }

  /// Repairs `lid`'s column of `columns` in place.
  /// Returns whether the column is settled: every switch delivers by
  /// entries the rule allows, and every entry taken out led nowhere (so
  /// make_switch_routes_legal has no entry to complete nor to take back).
  bool repair(LidColumns& columns, int lid, const Exit& exit) {
    if (exit.target < 0 || reach_.index(exit.target) < 0) return false;
    target_ = exit.target;
    column_ = columns.column(lid);
    columns_ = &columns;
    bool took_live = false;
    for (int x : switches_) {
      const uint8_t port = entry(x);
      if (x == target_ || port == kNoPath || reach_.allows(x, exit, port)) continue;
      took_live |= port != 0 && port <= fabric_.node(x).num_ports && fabric_.node(x).ports[port].peer.valid();
      entry(x) = kNoPath;
    }
    entry(target_) = static_cast<uint8_t>(exit.port);
    for (bool filled = true; filled;) {
      settle_all();
      filled = false;
      for (int x : switches_)
        if (state_[x] == kFails && entry(x) == kNoPath && reach_.in_updown(x, target_)) filled |= fill(x, lid, exit);
    }
    return !took_live && std::ranges::all_of(switches_, [&](int x) { return state_[x] == kDelivers; });
  }

 private:
  enum State : uint8_t { kUnknown, kVisiting, kDelivers, kFails };

  uint8_t& entry(int x) { return column_[columns_->rank(x)]; }

  bool fill(int x, int lid, const Exit& exit) {
    const Node& node = fabric_.node(x);
    for (int k = 0; k < node.num_ports; ++k) {
      const int port = 1 + (lid + k) % node.num_ports;
      const PortRef peer = node.ports[port].peer;
      if (!peer.valid() || state_[peer.node] != kDelivers || !reach_.allows(x, exit, port)) continue;
      entry(x) = static_cast<uint8_t>(port);
      state_[x] = kDelivers;
      return true;
    }
    return false;
  }

  // Whether each switch's entries lead to the target, memoized along each path.
  void settle_all() {
    for (int x : switches_) state_[x] = kUnknown;
    state_[target_] = kDelivers;
    for (int x : switches_) {
      State result = kFails;
      for (int at = x;;) {
        if (state_[at] == kDelivers || state_[at] == kFails) {
          result = static_cast<State>(state_[at]);
          break;
        }
        if (state_[at] == kVisiting) break;  // a loop: cannot happen on allowed entries, but holds
        state_[at] = kVisiting;
        path_.push_back(at);
        const uint8_t port = entry(at);
        if (port == kNoPath || port == 0 || port > fabric_.node(at).num_ports) break;
        const PortRef peer = fabric_.peer({at, port});
        if (!peer.valid() || !fabric_.node(peer.node).is_switch() || reach_.index(peer.node) < 0) break;
        at = peer.node;
      }
      for (int at : path_) state_[at] = result;
      path_.clear();
    }
  }

  const Fabric& fabric_;
  const UpDownReach& reach_;
  std::vector<int> switches_;
  LidColumns* columns_ = nullptr;
  uint8_t* column_ = nullptr;  // by switch rank, for the LID at hand
  std::vector<uint8_t> state_;
  std::vector<int> path_;
  int target_ = -1;
};

// Whether every switch's route to `lid` in its gathered column reaches
// `exit` (the target's entry its exit port; a switch LID: the switch).
bool column_delivers(const Fabric& fabric, const LidColumns& columns, int lid, const Exit& exit,
                     std::vector<uint8_t>& state) {
  enum : uint8_t { kUnknown, kVisiting, kDelivers, kFails };
  const uint8_t* column = columns.column(lid);
  std::ranges::fill(state, kUnknown);
  const int target_rank = columns.rank(exit.target);
  if (target_rank < 0 || column[target_rank] != exit.port) return false;
  state[target_rank] = kDelivers;
  std::vector<int> path;
  for (int start = 0; start < static_cast<int>(state.size()); ++start) {
    uint8_t result = kFails;
    for (int at = start;;) {  // ranks
      if (state[at] == kDelivers || state[at] == kFails) {
        result = state[at];
        break;
      }
      if (state[at] == kVisiting) break;  // a loop
      state[at] = kVisiting;
      path.push_back(at);
      const int x = columns.switch_at(at);
      const uint8_t port = column[at];
      if (port == kNoPath || port == 0 || port > fabric.node(x).num_ports) break;
      const PortRef peer = fabric.peer({x, port});
      if (!peer.valid() || columns.rank(peer.node) < 0) break;
      at = columns.rank(peer.node);
    }
    for (int at : path) state[at] = result;
    path.clear();
    if (result != kDelivers) return false;
  }
  return true;
}

// Why the repair does not apply to this fabric and these tables ("" when it does).
std::string why_not(const RoutingInput& input, const Lfts& previous, const std::vector<uint8_t>& previous_sl) {
  const Fabric& fabric = input.fabric;
  const Detection& detection = input.detection;
  const Family family = detection.families.empty() ? Family::kAnyFabric : detection.families.front().family;
  if (family != Family::kFtree && family != Family::kKary && family != Family::kClos2 && family != Family::kPgft)
    return "not a fat tree with labels";
  if (!is_folded_clos(fabric, detection.levels)) return "not a folded Clos";
  if (input.lids.lmc != 0) return "LMC above 0";
  if (!detection.levels.io_hosts.empty()) return "attached hosts or ANs (their detours are layered over all LIDs)";
  if (std::ranges::any_of(previous_sl, [](uint8_t sl) { return sl != 0; })) return "the last tables use SLs above 0";
  if (previous.port.size() != static_cast<size_t>(fabric.size())) return "the last tables are of another fabric";
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && previous.port[x].size() < static_cast<size_t>(input.lids.max_lid) + 1)
      return fmt::format("the last tables hold no entries for switch {}", fabric.node(x).display_name());
  if (!switch_turn_leaf_stays(input, previous)) return "the turn leaf of switches' own routes moves";
  return "";
}

}  // namespace

Result<CrossingRepair> repair_crossing_lids(const RoutingInput& input, const Lfts& previous,
                                            const std::vector<uint8_t>& previous_sl) {
  if (std::string why = why_not(input, previous, previous_sl); !why.empty()) return Status::Error(why);
  const Fabric& fabric = input.fabric;
  const LidMap& lids = input.lids;
  const Touched touched = scan_tables(fabric, lids, previous);
  CrossingRepair out;
  for (int lid = 1; lid <= lids.max_lid; ++lid)
    if (touched.crossing[lid]) out.lids.push_back(lid);
  Routing& routing = out.routing;
  routing.lfts = previous;
  routing.path_bits.assign(fabric.size(), 0);
  for (int lid = 1; lid <= lids.max_lid; ++lid)
    if (touched.gone[lid])
      for (int x = 0; x < fabric.size(); ++x)
        if (fabric.node(x).is_switch()) routing.lfts.port[x][lid] = kNoPath;

  // Every LID by the rule first, on the LIDs' columns gathered, a LID's
  // column being its own: blocks of LIDs in parallel. Switch LIDs too: the
  // CAs' routes to them (PMA queries) then keep every entry still allowed,
  // where the completion below would reroute them from their leaves.
  const LidColumns before(fabric, previous, out.lids, lids.max_lid);
  LidColumns now = before;
  const UpDownReach reach(fabric, input.detection.levels);
  const std::vector<Exit> exits = exits_by_lid(fabric, lids);
  const long count = static_cast<long>(out.lids.size());
  const int workers = worker_count(count / 64 + 1);
  std::vector<uint8_t> settled(count, 0);
  for_each_block(count, workers, [&](int, long begin, long end) {
    ColumnRepairer repairer(fabric, reach);
    for (long i = begin; i < end; ++i) settled[i] = repairer.repair(now, out.lids[i], exits[out.lids[i]]);
  });
  now.scatter(routing.lfts);
  // Switches' own routes: only where the rule left a switch without a
  // route, or took out an entry that may deliver all the same (the
  // completion takes those back where they still do).
  std::vector<int> unsettled;
  for (long i = 0; i < count; ++i)
    if (!settled[i]) unsettled.push_back(out.lids[i]);
  const RepairColumns columns{now, before, unsettled};
  const LegalSwitchRoutes legal = make_switch_routes_legal(input, routing.lfts, routing.dest_sl, &previous, &columns);
  if (legal.illegal > 0 || !legal.left.empty())
    return Status::Error(fmt::format("{} switch routes find no legal path, {} LIDs' CA routes turn", legal.illegal,
                                     legal.left.size()));

  // The change: only the repaired LIDs' entries can differ. And whether
  // every switch's route to each of them arrives.
  std::vector<long> entries(workers, 0), undelivered(workers, 0);
  std::vector<std::vector<long>> blocks(workers);  // switch * blocks-per-table + block
  const long per_table = lids.max_lid / kLftBlockLids + 1;
  out.changed_switches.resize(out.lids.size());
  for_each_block(count, workers, [&](int w, long begin, long end) {
    std::vector<uint8_t> state(now.switches());
    for (long i = begin; i < end; ++i) {
      const int lid = out.lids[i];
      const uint8_t* was = before.column(lid);
      const uint8_t* is = now.column(lid);
      for (int r = 0; r < before.switches(); ++r) {  // ascending by node, as ranks are
        if (was[r] == is[r]) continue;
        const int x = before.switch_at(r);
        ++entries[w];
        blocks[w].push_back(x * per_table + lid / kLftBlockLids);
        out.changed_switches[i].push_back(x);
      }
      undelivered[w] += !column_delivers(fabric, now, lid, exits[lid], state);
    }
  });
  std::vector<long> all_blocks;
  for (int w = 0; w < workers; ++w) {
    out.undelivered_lids += undelivered[w];
    out.changed += entries[w];
    all_blocks.insert(all_blocks.end(), blocks[w].begin(), blocks[w].end());
  }
  std::sort(all_blocks.begin(), all_blocks.end());
  out.changed_blocks = std::unique(all_blocks.begin(), all_blocks.end()) - all_blocks.begin();
  routing.rerouted = static_cast<int>(out.changed);
  routing.notes.push_back(fmt::format(
      "repair: the {} LIDs whose paths crossed a lost cable routed again ({} entries, {} of them switches' own "
      "routes); every other entry kept",
      out.lids.size(), out.changed, legal.written));
  return out;
}

}  // namespace ftclos
