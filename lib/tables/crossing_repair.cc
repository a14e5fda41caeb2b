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

// The scan over the tables of `switches`, blocks of them in parallel.
Touched scan_tables(const Fabric& fabric, const LidMap& lids, const Lfts& previous, const std::vector<int>& switches) {
  const size_t count = static_cast<size_t>(lids.max_lid) + 1;
  std::vector<uint8_t> owned(count, 0);
  for (size_t lid = 1; lid < count; ++lid) owned[lid] = lids.owner[lid] >= 0 ? 0xFF : 0;
  const long tables = static_cast<long>(switches.size());
  const int workers = worker_count(tables / 64 + 1);
  std::vector<Touched> parts(workers, Touched{std::vector<uint8_t>(count, 0), std::vector<uint8_t>(count, 0)});
  for_each_block(tables, workers, [&](int w, long begin, long end) {
    for (long i = begin; i < end; ++i) scan_table(fabric, lids, owned, switches[i], previous.port[switches[i]], parts[w]);
  });
  Touched touched = std::move(parts.front());
  for (size_t w = 1; w < parts.size(); ++w)
    for (size_t lid = 0; lid < count; ++lid) {
      touched.crossing[lid] |= parts[w].crossing[lid];
      touched.gone[lid] |= parts[w].gone[lid];
    }
  return touched;
}

// The switches' cables by column rank, flat, for the walks of a column
// (the fabric's nodes and ports are a pointer chase per hop).
struct RankCabling {
  std::vector<int> ports;  // per rank: its port count
  std::vector<int> first;  // per rank: where its ports' peers start in `peer`
  std::vector<int> peer;   // the rank a port leads to; -1: no cable, or a CA

  RankCabling(const Fabric& fabric, const LidColumns& columns) {
    for (int r = 0; r < columns.switches(); ++r) {
      const Node& node = fabric.node(columns.switch_at(r));
      ports.push_back(node.num_ports);
      first.push_back(static_cast<int>(peer.size()));
      for (int p = 0; p <= node.num_ports; ++p)
        peer.push_back(p > 0 && node.ports[p].peer.valid() ? columns.rank(node.ports[p].peer.node) : -1);
    }
  }
  /// The rank that rank r's `port` leads to; -1 when it leads nowhere or to a CA.
  int next(int r, uint8_t port) const {
    return port == kNoPath || port == 0 || port > ports[r] ? -1 : peer[first[r] + port];
  }
};

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
  ColumnRepairer(const Fabric& fabric, const UpDownReach& reach, LidColumns& columns, const RankCabling& cabling)
      : fabric_(fabric), reach_(reach), columns_(columns), cabling_(cabling),
        state_(columns.switches(), kUnknown), in_reach_(columns.switches(), 0) {
    for (int r = 0; r < columns.switches(); ++r)
      if (reach.index(columns.switch_at(r)) >= 0) {
        ranks_.push_back(r);
        in_reach_[r] = 1;
      }
  }

  /// Repairs `lid`'s column in place.
  /// Returns whether the column is settled: every switch delivers by
  /// entries the rule allows, and every entry taken out led nowhere (so
  /// make_switch_routes_legal has no entry to complete nor to take back).
  bool repair(int lid, const Exit& exit) {
    if (exit.target < 0 || reach_.index(exit.target) < 0) return false;
    const int target = columns_.rank(exit.target);
    column_ = columns_.column(lid);
    bool took_live = false;
    for (int r : ranks_) {
      const uint8_t port = column_[r];
      if (r == target || port == kNoPath || reach_.allows(columns_.switch_at(r), exit, port)) continue;
      took_live |= port != 0 && port <= cabling_.ports[r] && fabric_.node(columns_.switch_at(r)).ports[port].peer.valid();
      column_[r] = kNoPath;
    }
    column_[target] = static_cast<uint8_t>(exit.port);
    for (bool filled = true; filled;) {
      settle_all(target);
      filled = false;
      for (int r : ranks_)
        if (state_[r] == kFails && column_[r] == kNoPath && reach_.in_updown(columns_.switch_at(r), exit.target))
          filled |= fill(r, lid, exit);
    }
    return !took_live && std::ranges::all_of(ranks_, [&](int r) { return state_[r] == kDelivers; });
  }

 private:
  enum State : uint8_t { kUnknown, kVisiting, kDelivers, kFails };

  bool fill(int r, int lid, const Exit& exit) {
    const int x = columns_.switch_at(r), ports = cabling_.ports[r];
    for (int k = 0; k < ports; ++k) {
      const int port = 1 + (lid + k) % ports;
      const int peer = cabling_.peer[cabling_.first[r] + port];
      if (peer < 0 || state_[peer] != kDelivers || !reach_.allows(x, exit, port)) continue;
      column_[r] = static_cast<uint8_t>(port);
      state_[r] = kDelivers;
      return true;
    }
    return false;
  }

  // Whether each switch's entries lead to the target, memoized along each path.
  void settle_all(int target) {
    for (int r : ranks_) state_[r] = kUnknown;
    state_[target] = kDelivers;
    for (int r : ranks_) {
      State result = kFails;
      for (int at = r;;) {
        if (state_[at] == kDelivers || state_[at] == kFails) {
          result = static_cast<State>(state_[at]);
          break;
        }
        if (state_[at] == kVisiting) break;  // a loop: cannot happen on allowed entries, but holds
        state_[at] = kVisiting;
        path_.push_back(at);
        const int next = cabling_.next(at, column_[at]);
        if (next < 0 || !in_reach_[next]) break;
        at = next;
      }
      for (int at : path_) state_[at] = result;
      path_.clear();
    }
  }

  const Fabric& fabric_;
  const UpDownReach& reach_;
  LidColumns& columns_;
  const RankCabling& cabling_;
  std::vector<int> ranks_;      // the switches with a level, by rank
  uint8_t* column_ = nullptr;   // by switch rank, for the LID at hand
  std::vector<uint8_t> state_;  // per rank
  std::vector<uint8_t> in_reach_;  // per rank: the switch has a level
  std::vector<int> path_;
};

// Whether every switch's route to `lid` in its gathered column reaches
// `exit` (the target's entry its exit port; a switch LID: the switch).
bool column_delivers(const LidColumns& columns, const RankCabling& cabling, int lid, const Exit& exit,
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
      const int next = cabling.next(at, column[at]);
      if (next < 0) break;
      at = next;
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
                                            const std::vector<uint8_t>& previous_sl, const std::vector<int>* lost_at) {
  if (std::string why = why_not(input, previous, previous_sl); !why.empty()) return Status::Error(why);
  const Fabric& fabric = input.fabric;
  const LidMap& lids = input.lids;
  std::vector<int> every_switch;
  if (!lost_at)
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch()) every_switch.push_back(x);
  const Touched touched = scan_tables(fabric, lids, previous, lost_at ? *lost_at : every_switch);
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
  const RankCabling cabling(fabric, now);
  for_each_block(count, workers, [&](int, long begin, long end) {
    ColumnRepairer repairer(fabric, reach, now, cabling);
    for (long i = begin; i < end; ++i) settled[i] = repairer.repair(out.lids[i], exits[out.lids[i]]);
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
      undelivered[w] += !column_delivers(now, cabling, lid, exits[lid], state);
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
