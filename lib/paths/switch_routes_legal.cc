#include "paths/switch_routes_legal.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <utility>

#include "core/workers.h"
#include "detect/detect.h"
#include "detect/levels.h"
#include "paths/detour_layers.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

// The shape of the route from a switch on, for one LID; later shapes are worse.
enum Shape : uint8_t {
  kDown,      // only down (or the switch delivers)
  kUpDown,    // up, then only down
  kTurnDown,  // down to the turn leaf, up, down
  kTurnUp,    // up, down to the turn leaf, up, down
  kPivot,     // the orphan's: down to the pivot, whose route climbs (TurnPlace)
  kAny,       // delivers, turning elsewhere (a shortest path where nothing legal exists)
  kBad,       // does not deliver, or turns where it must not
  kUnknown,
  kVisiting,
};

bool delivers(Shape shape) { return shape <= kAny; }

bool climbs(const Fabric& fabric, const Levels& levels, int x, int port) {
  return direction(fabric, levels, {x, port}) == Direction::kUp;
}

// The switch and every switch above it (reached going only up).
std::vector<int> with_ancestors(const Fabric& fabric, const Levels& levels, int x) {
  std::vector<int> out{x};
  std::vector<bool> seen(fabric.size(), false);
  seen[x] = true;
  for (size_t head = 0; head < out.size(); ++head)
    for (int p = 1; p <= fabric.node(out[head]).num_ports; ++p) {
      if (!climbs(fabric, levels, out[head], p)) continue;
      const int y = fabric.peer({out[head], p}).node;
      if (!seen[y]) out.push_back(y);
      seen[y] = true;
    }
  return out;
}

// The top switches above each switch (itself, when it is one), as bits:
// two switches share one exactly when a route goes up from one, then down
// to the other (any switch above both has a top switch above it).
struct PeakSets {
  size_t words = 0;
  std::vector<uint64_t> bits;  // per node, `words` words

  PeakSets(const Fabric& fabric, const Levels& levels) {
    std::vector<int> switches, peaks;
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && levels.of[x] >= 1) switches.push_back(x);
    auto above = [&](int x, int p) {
      const PortRef peer = fabric.peer({x, p});
      return peer.valid() && fabric.node(peer.node).is_switch() && climbs(fabric, levels, x, p) ? peer.node : -1;
    };
    for (int x : switches) {
      bool climbs_on = false;
      for (int p = 1; p <= fabric.node(x).num_ports && !climbs_on; ++p) climbs_on = above(x, p) >= 0;
      if (!climbs_on) peaks.push_back(x);
    }
    words = (peaks.size() + 63) / 64;
    bits.assign(fabric.size() * words, 0);
    for (size_t k = 0; k < peaks.size(); ++k) bits[peaks[k] * words + k / 64] |= uint64_t{1} << (k % 64);
    std::ranges::sort(switches, [&](int a, int b) { return levels.of[a] > levels.of[b]; });
    for (int x : switches)
      for (int p = 1; p <= fabric.node(x).num_ports; ++p)
        if (const int y = above(x, p); y >= 0)
          for (size_t w = 0; w < words; ++w) bits[x * words + w] |= bits[y * words + w];
  }

  bool share(int a, int b) const {
    for (size_t w = 0; w < words; ++w)
      if (bits[a * words + w] & bits[b * words + w]) return true;
    return false;
  }

  long count(int x) const {
    long n = 0;
    for (size_t w = 0; w < words; ++w) n += std::popcount(bits[x * words + w]);
    return n;
  }
};

// Where switches' own routes may turn from down to up: the turn leaf and
// the switches above it, and, where one top switch (the orphan) lost every
// way down to them (a cut above the turn leaf), one more switch below it,
// the pivot: the orphan's routes go down to the pivot and climb from there,
// and the routes to the orphan come down to the pivot from the gate (another
// switch above it) and climb to the orphan. Neither closes a cycle: no route
// climbs into the orphan but from a switch below it, after a turn at the
// turn leaf (its ancestors hold no orphan) or at the pivot (to the orphan
// only as its destination), so the orphan's down channel to the pivot waits
// on no cycle; and what climbs from the pivot to the orphan goes down from
// there and cannot turn again (neither the turn leaf nor the pivot lies
// below another switch under the orphan). Keeping the turn leaf so changes
// only the routes that crossed the cut cable, where moving it changes every
// switch's routes that turn (1,072,855 entries on FT(48,3)).
struct TurnPlace {
  int leaf = -1;
  int orphan = -1;
  int pivot = -1;
  int gate = -1;
};

// The leaf whose ancestors hold the most top switches; among those, the one
// sharing the most parents with `near` (when given), then the first in GUID order.
int turn_leaf_of(const Fabric& fabric, const Levels& levels, const PeakSets& peaks, int near = -1) {
  std::vector<int> leaves;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && levels.of[x] == 1) leaves.push_back(x);
  std::ranges::sort(leaves, [&](int a, int b) { return precedes_by_guid(fabric, a, b); });
  std::vector<bool> near_parent(fabric.size(), false);
  if (near >= 0)
    for (int p = 1; p <= fabric.node(near).num_ports; ++p)
      if (climbs(fabric, levels, near, p)) near_parent[fabric.peer({near, p}).node] = true;
  auto shared_parents = [&](int leaf) {
    long n = 0;
    for (int p = 1; p <= fabric.node(leaf).num_ports; ++p)
      n += climbs(fabric, levels, leaf, p) && near_parent[fabric.peer({leaf, p}).node];
    return n;
  };
  int best = -1;
  std::pair<long, long> best_score{-1, -1};
  for (int leaf : leaves)
    if (const std::pair<long, long> score{peaks.count(leaf), shared_parents(leaf)}; score > best_score) {
      best_score = score;
      best = leaf;
    }
  return best;
}

// The last sweep's entry; kNoPath where its tables do not reach that far.
uint8_t previous_entry(const Lfts& previous, int x, int lid) {
  return x < static_cast<int>(previous.port.size()) ? previous.at_or_none(x, lid) : kNoPath;
}

std::vector<int> top_switches(const Fabric& fabric, const Levels& levels) {
  std::vector<int> tops;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] < 1) continue;
    bool climbs_on = false;
    for (int p = 1; p <= fabric.node(x).num_ports && !climbs_on; ++p) climbs_on = climbs(fabric, levels, x, p);
    if (!climbs_on) tops.push_back(x);
  }
  std::ranges::sort(tops, [&](int a, int b) { return precedes_by_guid(fabric, a, b); });
  return tops;
}

// Where the previous tables' switch routes turn: the lowest switch on the
// previous route from one top switch to another's LID, where that is a
// leaf and the route still delivers on this fabric; -1 when none is found.
int previous_turn_leaf(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& previous,
                       const std::vector<int>& tops) {
  // A few routes from each of a few top switches: a cut may break all of one's.
  constexpr size_t kFrom = 16;
  constexpr int kTo = 4, kHops = 64;
  for (size_t i = 0; i < tops.size() && i < kFrom; ++i)
    for (int to = 0, tried = 0; to < static_cast<int>(tops.size()) && tried < kTo; ++to) {
      const int from = tops[i];
      if (from == tops[to] || lids.base[tops[to]] == 0) continue;
      ++tried;
      int at = from, lowest = from;
      for (int hop = 0; hop < kHops && at != tops[to]; ++hop) {
        const uint8_t port = previous_entry(previous, at, lids.base[tops[to]]);
        if (port == kNoPath || port == 0 || port > fabric.node(at).num_ports) break;
        const PortRef peer = fabric.peer({at, port});
        if (!peer.valid() || !fabric.node(peer.node).is_switch()) break;
        at = peer.node;
        if (levels.of[at] < levels.of[lowest]) lowest = at;
      }
      if (at == tops[to] && levels.of[lowest] == 1) return lowest;
    }
  return -1;
}

// The one switch that shares no top switch with `leaf`, when it is a top
// switch with only switches below it, and a pivot and gate for it; else
// an empty place (orphan -1).
TurnPlace with_orphan(const Fabric& fabric, const Levels& levels, const PeakSets& peaks, int leaf) {
  int orphan = -1;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] < 1 || peaks.share(x, leaf)) continue;
    if (orphan >= 0) return {};
    orphan = x;
  }
  if (orphan < 0) return {};
  std::vector<int> below;
  for (int p = 1; p <= fabric.node(orphan).num_ports; ++p) {
    const PortRef peer = fabric.peer({orphan, p});
    if (!peer.valid()) continue;
    if (!fabric.node(peer.node).is_switch() || climbs(fabric, levels, orphan, p)) return {};
    below.push_back(peer.node);
  }
  auto by_guid = [&](int a, int b) { return precedes_by_guid(fabric, a, b); };
  std::ranges::sort(below, by_guid);
  for (int pivot : below) {
    std::vector<int> above;
    for (int p = 1; p <= fabric.node(pivot).num_ports; ++p)
      if (climbs(fabric, levels, pivot, p) && fabric.peer({pivot, p}).node != orphan)
        above.push_back(fabric.peer({pivot, p}).node);
    if (!above.empty()) return {leaf, orphan, pivot, *std::ranges::min_element(above, by_guid)};
  }
  return {};
}

// The turn leaf: without previous tables, turn_leaf_of. With them, the leaf
// they turn at stays while it keeps every top switch any leaf keeps, or
// all but one it can route around (with_orphan); else the leaf
// turn_leaf_of finds nearest it, whose routes change least.
TurnPlace choose_turn_place(const Fabric& fabric, const Levels& levels, const LidMap& lids, const PeakSets& peaks,
                            const Lfts* previous) {
  const int fresh = turn_leaf_of(fabric, levels, peaks);
  if (!previous || fresh < 0) return {fresh};
  const int before = previous_turn_leaf(fabric, levels, lids, *previous, top_switches(fabric, levels));
  if (before < 0) return {fresh};
  if (peaks.count(before) == peaks.count(fresh)) return {before};
  if (const TurnPlace place = with_orphan(fabric, levels, peaks, before); place.orphan >= 0) return place;
  return {turn_leaf_of(fabric, levels, peaks, before)};
}

}  // namespace

int switch_turn_leaf(const Fabric& fabric, const Levels& levels) {
  return turn_leaf_of(fabric, levels, PeakSets(fabric, levels));
}

namespace {

class LegalCompleter {
 public:
  LegalCompleter(const RoutingInput& input, Lfts& lfts, LegalSwitchRoutes& out, const Lfts* previous,
                 const RepairColumns* repair)
      : fabric_(input.fabric), levels_(input.detection.levels), lids_(input.lids), lfts_(lfts), out_(out),
        repair_(repair),
        peaks_(fabric_, levels_), shape_(fabric_.size(), kUnknown), column_(fabric_.size(), kNoPath),
        previous_column_(fabric_.size(), kNoPath), dirty_(fabric_.size(), false), fixed_(fabric_.size(), false) {
    for (int x = 0; x < fabric_.size(); ++x)
      if (fabric_.node(x).is_switch()) every_switch_.push_back(x);
    for (int x : every_switch_)
      if (levels_.of[x] >= 1) switches_.push_back(x);
    // GUID order, so that the entries written do not depend on the order nodes come in.
    std::ranges::sort(switches_, [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
    entry_switches_ = entry_switches(fabric_, lids_);
    for (int x = 0; x < fabric_.size(); ++x) {
      num_ports_.push_back(fabric_.node(x).num_ports);
      port_index_.push_back(static_cast<int>(up_port_.size()));
      up_port_.push_back(false);  // port 0
      switch_peer_.push_back(-1);
      for (int p = 1; p <= fabric_.node(x).num_ports; ++p) {
        up_port_.push_back(climbs(fabric_, levels_, x, p));
        const PortRef peer = fabric_.peer({x, p});
        switch_peer_.push_back(peer.valid() && fabric_.node(peer.node).is_switch() ? peer.node : -1);
      }
    }
    up_ports_.assign(fabric_.size(), {0, 0});
    down_ports_.assign(fabric_.size(), {0, 0});
    for (int x : switches_) {
      up_ports_[x] = port_run(x, true);
      down_ports_[x] = port_run(x, false);
    }
    place_ = choose_turn_place(fabric_, levels_, lids_, peaks_, previous);
    out_.turn_leaf = place_.leaf;
    out_.orphan = place_.orphan;
    if (place_.orphan >= 0) {
      gate_port_ = port_to(place_.gate, place_.pivot);
      pivot_port_ = port_to(place_.pivot, place_.orphan);
    }
    turn_switch_.assign(fabric_.size(), false);
    toward_turn_leaf_.resize(fabric_.size());
    if (out_.turn_leaf < 0) return;
    for (int x : with_ancestors(fabric_, levels_, out_.turn_leaf)) turn_switch_[x] = true;
    for (int x : switches_) {
      if (x == out_.turn_leaf) continue;
      // The up/down rule toward the turn leaf: down within its ancestors, else up to a switch above both.
      for (int p = 1; p <= num_ports_[x]; ++p) {
        const int next = switch_peer_[port_index_[x] + p];
        if (next < 0) continue;
        const bool up = up_port_[port_index_[x] + p];
        if (turn_switch_[x] ? !up && turn_switch_[next] : up && peaks_.share(next, out_.turn_leaf))
          toward_turn_leaf_[x].push_back(static_cast<uint8_t>(p));
      }
    }
  }

  /// Marks the LIDs every switch's route to goes up, then down (the common
  /// case), checked entry by entry without following routes: levels change
  /// by one per cable on a folded Clos, so such routes cannot loop. Switch
  /// by switch, so that each table is read in order; with `previous`, only
  /// the LIDs whose entries it holds unchanged. Of `lids` (ascending), the
  /// others count as marked.
  void mark_up_down(const Lfts* previous, const std::vector<int>& lids) {
    const std::vector<Exit> exits = exits_by_lid(fabric_, lids_);
    std::vector<uint8_t> up_down(lids_.max_lid + 1, 1);
    // Blocks of LIDs in parallel: each worker writes its own.
    const long count = static_cast<long>(lids.size());
    for_each_block(count, worker_count(count / 4096 + 1), [&](int, long begin, long end) {
      for (int x : switches_) {
        const int first = port_index_[x], ports = num_ports_[x];
        const std::vector<uint8_t>& table = lfts_.port[x];  // sized by the caller
        for (long i = begin; i < end; ++i) {
          // Most entries climb (every leaf's but its own CAs'), and a top
          // switch sends a run of LIDs down one port: 16 LIDs in a row whose
          // entries all take an up port, or one down port to a switch whose
          // entries for them all go on down to switches, are legal as they stand.
          if (!previous && i + 16 <= end && lids[i + 15] - lids[i] == 15 &&
              (climbs_all(x, table.data() + lids[i]) || descend_all(x, lids[i]))) {
            i += 15;
            continue;
          }
          const int lid = lids[i];
          if (!up_down[lid] || lids_.owner[lid] == x) continue;
          const uint8_t port = lfts_.at_or_none(x, lid);
          const Exit& exit = exits[lid];
          bool legal = !previous || port == previous_entry(*previous, x, lid);
          if (legal && !(x == exit.target && port == exit.port)) {
            const int next = port == kNoPath || port == 0 || port > ports ? -1 : switch_peer_[first + port];
            legal = next >= 0;
            if (legal && !up_port_[first + port] && lids_.owner[lid] != next) {
              // Down to `next`: its route must go down too, or deliver.
              const uint8_t after = lfts_.at_or_none(next, lid);
              legal = (next == exit.target && after == exit.port) ||
                      (after != kNoPath && after != 0 && after <= num_ports_[next] &&
                       switch_peer_[port_index_[next] + after] >= 0 && !up_port_[port_index_[next] + after]);
            }
          }
          if (!legal) up_down[lid] = 0;
        }
      }
    });
    up_down_.assign(up_down.begin(), up_down.end());
  }

  // Whether all 16 entries from `entries` on take a port in `run` [low,
  // high] (an empty run, {0, 0}: none does).
  static bool all_in(const uint8_t* entries, std::pair<uint8_t, uint8_t> run) {
    using Bytes = uint8_t __attribute__((vector_size(16)));  // GCC/Clang vector extensions
    const auto [low, high] = run;
    if (low == 0) return false;
    Bytes v;
    std::memcpy(&v, entries, sizeof v);
    const Bytes outside = reinterpret_cast<Bytes>((v < low) | (v > high));
    uint64_t words[2];
    std::memcpy(words, &outside, sizeof words);
    return (words[0] | words[1]) == 0;
  }

  // Whether all 16 entries from `entries` on take one of x's up ports
  // (up_ports_: its up ports, when they are one run of port numbers).
  bool climbs_all(int x, const uint8_t* entries) const { return all_in(entries, up_ports_[x]); }

  // Whether x's entries for the 16 LIDs from `lid` on are one down port to
  // a switch whose entries for them all take a port of its down run.
  bool descend_all(int x, int lid) const {
    const uint8_t* entries = lfts_.port[x].data() + lid;
    const uint8_t port = entries[0];
    if (port == 0 || port > num_ports_[x] || up_port_[port_index_[x] + port]) return false;
    const int next = switch_peer_[port_index_[x] + port];
    return next >= 0 && all_in(entries, {port, port}) && all_in(lfts_.port[next].data() + lid, down_ports_[next]);
  }

  /// mark_up_down's finding, for the completers of other LIDs to share.
  const std::vector<bool>& up_down() const { return up_down_; }
  void take_up_down(const std::vector<bool>& marks) { up_down_ = marks; }

  /// Whether the CAs' own routes to CA LID `lid` go up, then down.
  bool ca_routes_up_down(int lid) {
    if (up_down_[lid]) return true;
    const bool up_down = !start(lid) || mark_fixed();
    write_back();  // the orphan's gate and pivot (route_down_the_gate)
    return up_down;
  }

  /// False when the CAs' own routes to `lid` do not go up, then down.
  bool complete(int lid, const Lfts* previous) {
    if (up_down_[lid]) return true;
    const bool completed = complete_column(lid, previous);
    write_back();
    return completed;
  }

 private:
  bool complete_column(int lid, const Lfts* previous) {
    if (!start(lid)) return true;
    if (!fabric_.node(owner_).is_switch() && !mark_fixed()) return false;
    if (!previous) {
      head_for_turn_leaf(lid);
      reroute_bad(lid);
      note_turns(lid);
      return true;
    }
    if (repair_) return complete_repaired_column(*previous);
    // Keeping the previous ports and then rerouting can change more than
    // completing the scheme's entries afresh (when the turn leaf moved):
    // both are legal, so the one that changes fewer entries is written.
    const Column scheme = save();
    read_previous_column(*previous);
    if (take_previous()) give_way_to_scheme();
    const long written = out_.written;
    reroute_bad(lid);
    const Column kept = save();
    // Nothing changed but the CAs' own routes (the common case after a
    // failure): nothing fresh can change less. The shapes are the column's
    // already unless reroute_bad wrote.
    if (changes(kept) == 0) {
      if (out_.written != written) restore(kept);
      note_turns(lid);
      return true;
    }
    restore(scheme);
    head_for_turn_leaf(lid);
    reroute_bad(lid);
    if (changes(kept) <= changes(save())) restore(kept);
    note_turns(lid);
    return true;
  }

  // A repair's column (RepairColumns): its switches no CA route crosses
  // take their previous ports, and only those whose route no longer
  // delivers legally (it crossed the lost cable) are rerouted, round by
  // round from the routes that do. The turn leaf stays
  // (switch_turn_leaf_stays), so a kept route turns where it did; neither
  // the scheme's entries nor a fresh completion are weighed (on FT(48,3)
  // after an L2-L3 cut that halved the completion, and a rerouted switch
  // keeps the routes through it: fewer entries change).
  bool complete_repaired_column(const Lfts& previous) {
    read_previous_column(previous);
    if (take_previous()) settle_all();
    const long written = out_.written;
    reroute_bad(lid_, /*nearest_first=*/true);
    if (out_.written != written) settle_all();  // note_turns reads every shape
    note_turns(lid_);
    return true;
  }

  // Every switch's (settle may pass switches outside switches_); CAs have none.
  void reset_shapes() {
    for (int x : every_switch_) shape_[x] = kUnknown;
  }
  void settle_all() {
    reset_shapes();
    for (int x : switches_)
      if (shape_[x] == kUnknown) settle(x);  // most were settled on an earlier switch's way
  }

  // Settles every switch for `lid`; false when its owner hangs on no switch a CA reaches.
  bool start(int lid) {
    lid_ = lid;
    owner_ = lids_.owner[lid];
    exit_ = exit_of(fabric_, owner_);
    if (exit_.target < 0 || levels_.of[exit_.target] < 1) return false;
    std::fill(fixed_.begin(), fixed_.end(), false);
    read_column(lid);
    if (owner_ >= 0 && owner_ == place_.orphan) route_down_the_gate();
    settle_all();
    return true;
  }

  // The routes to the orphan: to the gate, as to any switch, then down to
  // the pivot and up to the orphan; those two entries stay (fixed).
  void route_down_the_gate() {
    exit_ = {place_.gate, gate_port_};
    for (const auto& [x, port] : {std::pair{place_.gate, gate_port_}, std::pair{place_.pivot, pivot_port_}}) {
      if (entry(x) != port) {
        set_entry(x, port);
        ++out_.written;
      }
      fixed_[x] = true;
    }
  }

  // Switch x's up (`up`) or down ports cabled to a switch as one run
  // [low, high] of port numbers; {0, 0} where they are not one run, or none.
  std::pair<uint8_t, uint8_t> port_run(int x, bool up) const {
    const auto in_run = [&](int p) {
      return (up_port_[port_index_[x] + p] != 0) == up && switch_peer_[port_index_[x] + p] >= 0;
    };
    int low = 0, high = 0;
    for (int p = 1; p <= num_ports_[x]; ++p)
      if (in_run(p)) {
        if (low == 0) low = p;
        high = p;
      }
    for (int p = low; p >= 1 && p <= high; ++p)
      if (!in_run(p)) return {0, 0};
    return {static_cast<uint8_t>(low), static_cast<uint8_t>(high)};
  }

  // The first port of switch `x` cabled to `y`.
  uint8_t port_to(int x, int y) const {
    for (int p = 1; p <= num_ports_[x]; ++p)
      if (switch_peer_[port_index_[x] + p] == y) return static_cast<uint8_t>(p);
    return 0;
  }

  // The LID's column, read into column_ by start() and written back by
  // write_back(): a LID's entries lie in as many tables as switches, a cache
  // miss each, and completing it reads them many times.
  void set_entry(int x, uint8_t port) {
    if (!dirty_[x]) dirty_list_.push_back(x);
    dirty_[x] = true;
    column_[x] = port;
  }

  uint8_t entry(int x) const { return column_[x]; }

  void read_column(int lid) {
    for (int x : dirty_list_) dirty_[x] = false;
    dirty_list_.clear();
    if (repair_) {
      const uint8_t* column = repair_->now.column(lid);
      for (int x : every_switch_) column_[x] = column[repair_->now.rank(x)];
      return;
    }
    for (int x : every_switch_) column_[x] = lfts_.at_or_none(x, lid);
  }

  void write_back() {
    // A repair compares with its gathered column: a table read is a cache miss.
    uint8_t* gathered = repair_ ? repair_->now.column(lid_) : nullptr;
    for (int x : dirty_list_) {
      uint8_t& held = gathered ? gathered[repair_->now.rank(x)] : lfts_.port[x][lid_];  // sized by the caller
      if (column_[x] != held) {
        held = column_[x];
        if (gathered) lfts_.port[x][lid_] = column_[x];
      }
      dirty_[x] = false;
    }
    dirty_list_.clear();
  }

  void read_previous_column(const Lfts& previous) {
    if (repair_) {
      const uint8_t* column = repair_->previous.column(lid_);
      for (int x : switches_) previous_column_[x] = column[repair_->previous.rank(x)];
      return;
    }
    for (int x : switches_) previous_column_[x] = previous_entry(previous, x, lid_);
  }

  // The switch `x`'s entry leads to; -1 when it leads nowhere or to a CA.
  int next_of(int x) const {
    const uint8_t port = entry(x);
    return port == kNoPath || port == 0 || port > num_ports_[x] ? -1 : switch_peer_[port_index_[x] + port];
  }

  bool delivers_here(int x) const {
    return x == owner_ || (x == exit_.target && entry(x) == exit_.port);
  }

  // The shape of x's route through neighbour `y` (a switch whose shape is known).
  Shape through(int x, int port, int y) const {
    const Shape after = static_cast<Shape>(shape_[y]);
    if (!delivers(after) || after == kPivot) return kBad;  // no route goes through the orphan's turn
    if (after == kAny) return kAny;
    if (up_port_[port_index_[x] + port]) return after <= kUpDown ? kUpDown : kTurnUp;
    if (after == kDown || after == kTurnDown) return after;
    if (x == place_.orphan && y == place_.pivot) return after == kUpDown || after == kTurnUp ? kPivot : kBad;
    return turn_switch_[y] && after == kUpDown ? kTurnDown : kBad;
  }

  void settle(int x) {
    int at = x;
    for (;;) {
      if (shape_[at] != kUnknown) break;  // known, or kVisiting: a loop
      if (delivers_here(at)) {
        shape_[at] = kDown;
        break;
      }
      const int next = next_of(at);
      if (next < 0) {
        shape_[at] = kBad;
        break;
      }
      shape_[at] = kVisiting;
      path_.push_back(at);
      at = next;
    }
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      const int next = next_of(*it);
      shape_[*it] = shape_[next] == kVisiting ? kBad : through(*it, entry(*it), next);
    }
    path_.clear();
  }

  // The common case of what needs a turn, in one step per switch: a switch
  // with no up/down route to the target takes an up/down port toward the
  // turn leaf. Its route then climbs and descends toward the turn leaf
  // until a switch that has an up/down route to the target: reached going
  // down, that switch is the turn leaf or above it, where a turn is legal.
  void head_for_turn_leaf(int lid) {
    const int turn_leaf = out_.turn_leaf;
    if (turn_leaf < 0 || !peaks_.share(turn_leaf, exit_.target)) return;
    std::vector<int> moved;
    for (int x : switches_) {
      const std::vector<uint8_t>& ports = toward_turn_leaf_[x];
      if (shape_[x] != kBad || fixed_[x] || ports.empty() || peaks_.share(x, exit_.target)) continue;
      set_entry(x, ports[lid % ports.size()]);  // by LID: the entries spread over the ports
      moved.push_back(x);
    }
    if (moved.empty()) return;
    settle_all();
    out_.written += static_cast<long>(moved.size());
    out_.turned += std::ranges::count_if(moved, [&](int x) { return shape_[x] == kTurnDown || shape_[x] == kTurnUp; });
  }

  void note_turns(int lid) {
    if (std::ranges::any_of(switches_, [&](int x) { return shape_[x] >= kTurnDown && shape_[x] <= kAny; }))
      out_.turning_lids.push_back(lid);
  }

  // Gives every switch whose route for `lid` does not deliver legally a port
  // to one that does. With `nearest_first`, where no switch whose own entry
  // is at fault can be given one, those one hop behind such a switch go
  // before any other: rerouting them keeps the routes through them.
  void reroute_bad(int lid, bool nearest_first = false) {
    std::vector<int> bad;
    for (int x : switches_)
      if (shape_[x] == kBad && !fixed_[x]) bad.push_back(x);
    // Rounds: round r settles the switches r hops from routes that deliver,
    // first those whose own entry is at fault, then any.
    while (!bad.empty()) {
      if (!reroute(bad, lid, Fault::kOwn) && !(nearest_first && reroute(bad, lid, Fault::kNext)) &&
          !reroute(bad, lid, Fault::kAny))
        break;
      std::erase_if(bad, [&](int x) { return shape_[x] != kBad; });
      for (int x : bad) shape_[x] = kUnknown;
      for (int x : bad) settle(x);
      std::erase_if(bad, [&](int x) { return shape_[x] != kBad; });
    }
    if (!bad.empty()) detour(bad);
  }

  // One LID's entries in every switch, with the counts written for them.
  struct Column {
    std::vector<uint8_t> port;  // per switch in switches_ order
    long written, turned, illegal;
    size_t illegal_lids;
  };

  Column save() const {
    Column column{{}, out_.written, out_.turned, out_.illegal, out_.illegal_lids.size()};
    for (int x : switches_) column.port.push_back(entry(x));
    return column;
  }

  void restore(const Column& column) {
    for (size_t i = 0; i < switches_.size(); ++i) set_entry(switches_[i], column.port[i]);
    out_.written = column.written;
    out_.turned = column.turned;
    out_.illegal = column.illegal;
    out_.illegal_lids.resize(column.illegal_lids);
    settle_all();
  }

  // The column's entries that differ from the previous tables' at the
  // switches no CA route to the LID crosses: the CAs' own (fixed_) are the
  // scheme's in every completion of the column, so they weigh nothing in
  // the choice between the kept and the fresh one.
  long changes(const Column& column) const {
    long n = 0;
    for (size_t i = 0; i < switches_.size(); ++i)
      n += !fixed_[switches_[i]] && column.port[i] != previous_column_[switches_[i]];
    return n;
  }

  // Gives the switches no CA route crosses their previous port for `lid`;
  // whether any changed (those that no longer deliver are rerouted after).
  bool take_previous() {
    taken_.clear();
    for (int x : switches_) {
      const uint8_t before = previous_column_[x];
      if (fixed_[x] || before == kNoPath || before == entry(x)) continue;
      taken_.push_back({x, entry(x)});
      set_entry(x, before);
    }
    return !taken_.empty();
  }

  // A previous port that no longer delivers legally gives way to the
  // scheme's own entry before anything is rerouted: the scheme's entries
  // are what a sweep from scratch writes, so keeping never changes more.
  // First those whose own entry is at fault, then (a loop) all.
  void give_way_to_scheme() {
    bool settled = false;  // shapes change only where an entry does
    for (bool own_fault_only = true;;) {
      if (!settled) {
        settle_all();
        settled = true;
      }
      bool restored = false;
      for (const auto& [x, own] : taken_) {
        const int next = next_of(x);
        if (shape_[x] != kBad || entry(x) == own || (own_fault_only && next >= 0 && shape_[next] == kBad))
          continue;
        set_entry(x, own);
        restored = true;
      }
      settled = !restored;
      if (!restored && !own_fault_only) return;
      own_fault_only = restored;
    }
  }

  // Marks the switches CA routes to `lid` cross; false when one of them turns or fails.
  bool mark_fixed() {
    for (int e : entry_switches_)
      for (int at = e; at >= 0 && !fixed_[at]; at = delivers_here(at) ? -1 : next_of(at)) {
        if (shape_[at] > kUpDown) return false;
        fixed_[at] = true;
      }
    return true;
  }

  // Which switches of `bad` reroute() gives a port: those whose own entry
  // (not a later one) is at fault, those whose next switch's own entry is,
  // or any.
  enum class Fault { kOwn, kNext, kAny };

  // Whether `x`'s own entry is at fault, not a later one.
  bool own_fault(int x) const {
    const int next = next_of(x);
    return next < 0 || shape_[next] != kBad;
  }

  // Gives the switches of `bad` that `fault` names a port to a switch whose
  // route delivers, the best shape first. Whether any was given.
  bool reroute(const std::vector<int>& bad, int lid, Fault fault) {
    moves_.clear();
    for (int x : bad) {
      if (fault == Fault::kOwn && !own_fault(x)) continue;
      if (fault == Fault::kNext && (own_fault(x) || !own_fault(next_of(x)))) continue;
      if (x == exit_.target) {  // its own CA's cable
        moves_.push_back({x, exit_.port, kDown});
        continue;
      }
      const int ports = num_ports_[x];
      std::pair<int, Shape> best{0, kBad};
      for (int k = 0; k < ports; ++k) {
        const int port = 1 + (lid + k) % ports;  // rotated by LID: the entries spread over the ports
        const int peer = switch_peer_[port_index_[x] + port];
        if (peer < 0) continue;
        const Shape shape = through(x, port, peer);
        if (shape < best.second && shape != kAny) best = {port, shape};
      }
      if (best.first != 0) moves_.push_back({x, best.first, best.second});
    }
    for (const Move& move : moves_) write(move);
    return !moves_.empty();
  }

  // What has no legal route takes a shortest path over switch cables to one that delivers.
  void detour(const std::vector<int>& bad) {
    for (bool changed = true; changed;) {
      moves_.clear();
      for (int x : bad) {
        if (shape_[x] != kBad) continue;
        const Node& node = fabric_.node(x);
        for (int port = 1; port <= node.num_ports; ++port) {
          const PortRef peer = node.ports[port].peer;
          if (!peer.valid() || !fabric_.node(peer.node).is_switch()) continue;
          const Shape after = static_cast<Shape>(shape_[peer.node]);
          if (delivers(after) && after != kPivot) {
            moves_.push_back({x, port, kAny});
            break;
          }
        }
      }
      for (const Move& move : moves_) write(move);
      out_.illegal += static_cast<long>(moves_.size());
      if (!moves_.empty() && (out_.illegal_lids.empty() || out_.illegal_lids.back() != lid_)) out_.illegal_lids.push_back(lid_);
      changed = !moves_.empty();
    }
  }

  struct Move {
    int node;
    int port;
    Shape shape;
  };

  void write(const Move& move) {
    set_entry(move.node, static_cast<uint8_t>(move.port));
    shape_[move.node] = move.shape;
    ++out_.written;
    out_.turned += move.shape == kTurnDown || move.shape == kTurnUp || move.shape == kPivot;
  }

  const Fabric& fabric_;
  const Levels& levels_;
  const LidMap& lids_;
  Lfts& lfts_;
  LegalSwitchRoutes& out_;
  const RepairColumns* repair_;  // the LIDs being repaired, gathered; nullptr: all LIDs, from the tables
  const PeakSets peaks_;
  std::vector<bool> up_down_;        // per LID: mark_up_down's finding
  std::vector<uint8_t> up_port_;     // at port_index_[node] + port: the port climbs
  std::vector<int> switch_peer_;     // at port_index_[node] + port: the switch cabled there, or -1
  std::vector<int> port_index_;
  std::vector<int> num_ports_;       // per node
  std::vector<std::pair<uint8_t, uint8_t>> up_ports_;    // per switch: port_run(up)
  std::vector<std::pair<uint8_t, uint8_t>> down_ports_;  // per switch: port_run(down)
  std::vector<int> every_switch_;
  std::vector<int> switches_;        // those with a level, in GUID order
  std::vector<int> entry_switches_;  // the switches CAs with LIDs enter at, once each
  std::vector<uint8_t> shape_;       // per node, for the LID being completed
  std::vector<uint8_t> column_;      // per node: its entry for the LID being completed (set_entry)
  std::vector<uint8_t> previous_column_;  // per node: the previous tables' (read_previous_column)
  std::vector<bool> dirty_;          // per node: column_ was set
  std::vector<int> dirty_list_;
  std::vector<bool> fixed_;          // per node: a CA's route to the LID crosses it
  std::vector<bool> turn_switch_;    // per node: the turn leaf or above it, where a route may turn
  std::vector<std::vector<uint8_t>> toward_turn_leaf_;  // per switch: its up/down ports toward the turn leaf
  std::vector<int> path_;
  std::vector<Move> moves_;
  std::vector<std::pair<int, uint8_t>> taken_;  // switches given their previous port for the LID, and the scheme's
  TurnPlace place_;
  uint8_t gate_port_ = 0, pivot_port_ = 0;  // the gate's port to the pivot, the pivot's to the orphan
  int owner_ = -1;
  Exit exit_;
  int lid_ = 0;
};

}  // namespace

bool switch_turn_leaf_stays(const RoutingInput& input, const Lfts& previous) {
  const PeakSets peaks(input.fabric, input.detection.levels);
  const TurnPlace place = choose_turn_place(input.fabric, input.detection.levels, input.lids, peaks, &previous);
  return place.leaf >= 0 && place.leaf == previous_turn_leaf(input.fabric, input.detection.levels, input.lids, previous,
                                                             top_switches(input.fabric, input.detection.levels));
}

LegalSwitchRoutes make_switch_routes_legal(const RoutingInput& input, Lfts& lfts, const std::vector<uint8_t>& dest_sl,
                                           const Lfts* previous, const RepairColumns* repair) {
  const LidMap& lids = input.lids;
  std::vector<int> every_lid;
  if (!repair)
    for (int lid = 1; lid <= lids.max_lid; ++lid) every_lid.push_back(lid);
  const std::vector<int>* only_lids = repair ? &repair->lids : &every_lid;
  // Every switch's table holds every LID first: the completers write theirs in parallel.
  for (int x = 0; x < input.fabric.size(); ++x)
    if (input.fabric.node(x).is_switch() && lfts.port[x].size() < static_cast<size_t>(lids.max_lid) + 1)
      lfts.port[x].resize(lids.max_lid + 1, kNoPath);
  LegalSwitchRoutes out;
  LegalCompleter completer(input, lfts, out, previous, repair);
  completer.mark_up_down(previous, *only_lids);
  // A CA LID on an SL of its own has CA routes that turn (their layer keeps
  // them apart); a switch LID's SL comes from its switches' turns, which
  // layer_switch_turns places again after completing them.
  auto own_sl = [&](int lid) {
    return lid < static_cast<int>(dest_sl.size()) && dest_sl[lid] != 0 &&
           !input.fabric.node(lids.owner[lid]).is_switch();
  };
  std::vector<int> todo;  // the LIDs some switch's route to is not up/down
  for (int lid : *only_lids) {
    if (lids.owner[lid] < 0) continue;
    if (own_sl(lid))
      out.left.push_back(lid);
    else if (!completer.up_down()[lid])
      todo.push_back(lid);
  }
  // A completer per worker, each over a block of `todo`: a LID's column is
  // its own (each reads and writes only its LID's entries), and what they
  // find is merged in LID order, so no result depends on how many run.
  const int workers = worker_count(static_cast<long>(todo.size()) / 64 + 1);
  std::vector<LegalSwitchRoutes> found(workers);
  // Each worker builds its own (milliseconds each on FT(48,3)).
  std::vector<std::unique_ptr<LegalCompleter>> completers(workers);
  for_each_block(workers, workers, [&](int w, long, long) {
    completers[w] = std::make_unique<LegalCompleter>(input, lfts, found[w], previous, repair);
    completers[w]->take_up_down(completer.up_down());
  });
  const long tasks = static_cast<long>(todo.size());
  // Levels' up/down must be the scheme's own rule (not up*/down* from a root): else mixing them could close loops.
  // A repair's caller drops its tables where any LID is left, so its
  // completion finds such a LID itself (mark_fixed) instead of a pass first.
  std::vector<uint8_t> ca_turns(workers, 0);
  if (!repair) {
    for_each_block(tasks, workers, [&](int w, long begin, long end) {
      for (long i = begin; i < end && !ca_turns[w]; ++i) {
        const int lid = todo[i];
        ca_turns[w] = !input.fabric.node(lids.owner[lid]).is_switch() && !completers[w]->ca_routes_up_down(lid);
      }
    });
  }
  if (std::ranges::any_of(ca_turns, [](uint8_t turns) { return turns != 0; })) {
    out.left.clear();
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      if (lids.owner[lid] >= 0) out.left.push_back(lid);
    return out;
  }
  for_each_block(tasks, workers, [&](int w, long begin, long end) {
    for (long i = begin; i < end; ++i)
      if (!completers[w]->complete(todo[i], previous)) found[w].left.push_back(todo[i]);
  });
  for (const LegalSwitchRoutes& part : found) {
    out.written += part.written;
    out.turned += part.turned;
    out.illegal += part.illegal;
    out.illegal_lids.insert(out.illegal_lids.end(), part.illegal_lids.begin(), part.illegal_lids.end());
    out.turning_lids.insert(out.turning_lids.end(), part.turning_lids.begin(), part.turning_lids.end());
    out.left.insert(out.left.end(), part.left.begin(), part.left.end());
  }
  std::ranges::sort(out.left);
  return out;
}

void layer_switch_turns(const RoutingInput& input, const LegalSwitchRoutes& legal, Routing& routing) {
  const std::vector<FamilyMatch>& families = input.detection.families;
  const Family family = families.empty() ? Family::kAnyFabric : families.front().family;
  const bool labelled = family == Family::kFtree || family == Family::kKary || family == Family::kClos2 ||
                        family == Family::kPgft;
  // The argument holds for up/down routes on SL 0, not where CA routes turn on layers of their own.
  bool ca_layers = false;
  for (size_t lid = 1; lid < routing.dest_sl.size() && !ca_layers; ++lid)
    ca_layers = routing.dest_sl[lid] != 0 && !input.fabric.node(input.lids.owner[lid]).is_switch();
  if (labelled && !ca_layers)
    layer_turning_lids(input, legal.illegal_lids, 1, routing);
  else
    layer_turning_lids(input, legal.turning_lids, 0, routing);
}

}  // namespace ftclos
