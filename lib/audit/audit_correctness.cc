// check_correctness (audit.h): what the packets of every (source,
// destination) pair do, walked one destination LID at a time
// (audit_walk.h), and the credit loops the routes make.
//
// Which LIDs: every LID of every destination's range, from every source,
// whatever AuditInput::offsets says: a source may use any LID a PathRecord
// gives it, so a black hole, loop or credit loop on an offset no chosen
// source takes is still a fault (the offsets choose only the LIDs the
// contention figures load).
//
// Counting: every examined route (source, destination, LID) counts once in
// `pairs` -- a pair counts once per LID of the destination, 2^lmc times --
// and at most once in `unreachable` or `loops`. A pair whose CAs no cable path joins
// (through switches) is not examined: it counts in `disconnected` instead. A delivered route may also count as an
// up/down violation (checked only when every switch cable joins adjacent
// levels: a folded Clos) and as non-minimal (more links than the shortest
// path in the cabling, by BFS from the switches cabled to the destination;
// only with AuditInput::count_non_minimal).
// Switches' own traffic is walked on the same columns (every switch, every
// LID of every range, and every switch LID from every CA) and counted
// apart: `switch_pairs`, `switch_unreachable`, and `switch_credit_loops`:
// the credit loops once its routes join the graph on the LID's SL (PMA
// queries and answers hold data VLs too).
//
// Credit loops: the channel dependency graph of the routes sources actually
// take, over (channel, VL) nodes: a channel is a switch egress port that
// leads to a switch, and a path that takes c1 then c2 makes c1 (on the VL
// its packets hold there) wait for c2 (on the VL they get there). The CA-to-
// switch ingress is left out: nothing waits on it in a cycle. A packet's SL
// is dest_sl[LID] unless sl_exceptions give its (source, LID) another one;
// at each switch its VL on the out port is that port pair's SL2VL entry
// (sl2vl_ports, else sl2vl, else VL = SL). Paths are recorded per SL and
// turned into VL edges at the end; a packet's VL on c1 depends on where it
// entered c1's switch, which the per-SL graphs do not keep, so c1 counts on
// every VL some in port of its switch maps the SL to: exact when a switch's
// table does not depend on the in port (as OpenSM and ftclos program them),
// never missing a loop when it does. `credit_loops` counts the strongly
// connected components with a cycle: one per deadlock-prone region, not per
// elementary cycle (of which a region may hold exponentially many). On a
// folded Clos, routes that go only up, then only down, cannot close a cycle
// among themselves whatever their VLs (every dependency leads to a higher up
// channel or a lower down one), so an SL whose routes all do so needs no
// graph; a column whose routes all do so is recorded only once some column
// of an SL sharing a VL with it does not (replayed after the walk), so that
// every thread count finds the same graphs. Multicast groups
// (AuditInput::mcast) add every turn their trees make, on their SL, and so
// always need the graph of the VLs it maps to.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <map>
#include <span>

#include "audit/audit_walk.h"
#include "audit/mcast_check.h"

namespace ftclos {
namespace {

constexpr int kExamplesPerKind = 3;
constexpr int kVls = 16;

enum Kind { kUnreachable, kLoop, kUpDown, kNonMinimal, kCreditLoop, kSwitchTraffic, kKinds };

std::string name_of(const Fabric& fabric, int node) { return fabric.node(node).display_name(); }

// Per node, the connected piece of the cabling it belongs to, joined through
// switches only (a CA forwards nothing): a CA takes the piece of the first
// switch it is cabled to; a CA cabled to no switch is a piece of its own.
std::vector<int> cabling_pieces(const Fabric& fabric) {
  std::vector<int> piece(fabric.size(), -1);
  int pieces = 0;
  for (int root = 0; root < fabric.size(); ++root) {
    if (piece[root] >= 0 || !fabric.node(root).is_switch()) continue;
    std::deque<int> queue{root};
    piece[root] = pieces;
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      for (const Port& port : fabric.node(x).ports) {
        const int y = port.peer.node;
        if (y < 0 || piece[y] >= 0 || !fabric.node(y).is_switch()) continue;
        piece[y] = pieces;
        queue.push_back(y);
      }
    }
    ++pieces;
  }
  for (int i = 0; i < fabric.size(); ++i) {
    if (fabric.node(i).is_switch()) continue;
    for (const Port& port : fabric.node(i).ports)
      if (piece[i] < 0 && port.peer.valid() && fabric.node(port.peer.node).is_switch()) piece[i] = piece[port.peer.node];
    if (piece[i] < 0) piece[i] = pieces++;
  }
  return piece;
}

std::string port_text(const Fabric& fabric, PortRef port) {
  return fmt::format("{} port {}", name_of(fabric, port.node), port.port);
}

// Why a route failed or misbehaved, from the single-packet tracer: where it happened.
std::string describe(const AuditInput& in, int source, int destination, int lid, Kind kind, int shortest) {
  const Fabric& fabric = in.fabric;
  const Trace path = trace(fabric, in.lids, in.lfts, source, lid);
  const PortRef last = path.hops.back();
  std::string what;
  switch (kind) {
    case kUnreachable: {
      const PortRef peer = fabric.peer(last);
      if (path.outcome == Trace::Outcome::kDeadPort) {
        what = "dead port at " + port_text(fabric, last);
      } else if (peer.valid() && !fabric.node(peer.node).is_switch()) {
        what = "delivered to " + name_of(fabric, peer.node);
      } else {
        const int node = peer.valid() ? peer.node : last.node;
        const bool has_entry = node < static_cast<int>(in.lfts.port.size()) &&
                               lid < static_cast<int>(in.lfts.port[node].size());
        what = fmt::format("no route at {} (LFT entry {:#04x})", name_of(fabric, node),
                           has_entry ? in.lfts.port[node][lid] : kNoPath);
      }
      break;
    }
    case kLoop: what = "loop at " + port_text(fabric, last); break;
    case kUpDown: {
      bool went_down = false;
      for (const PortRef hop : path.hops) {
        const PortRef peer = fabric.peer(hop);
        if (!peer.valid() || !fabric.node(hop.node).is_switch()) continue;
        const bool up = in.levels.of[peer.node] > in.levels.of[hop.node];
        if (up && went_down) {
          what = "goes up again at " + port_text(fabric, hop);
          break;
        }
        went_down |= !up;
      }
      break;
    }
    case kNonMinimal: what = fmt::format("{} links, the shortest path has {}", path.hops.size(), shortest); break;
    default: break;
  }
  return fmt::format("{} → {} (LID {:#x}): {}", name_of(fabric, source), name_of(fabric, destination), lid, what);
}

// Per node, the switches its switch cables lead to, each once, flat: the
// distance BFS runs once per leaf and reads only this.
class SwitchGraph {
 public:
  explicit SwitchGraph(const Fabric& fabric) : first_(fabric.size() + 1, 0) {
    for (int x = 0; x < fabric.size(); ++x) {
      first_[x] = static_cast<int>(next_.size());
      if (!fabric.node(x).is_switch()) continue;
      for (const Port& port : fabric.node(x).ports) {
        const int y = port.peer.node;
        if (y < 0 || !fabric.node(y).is_switch()) continue;
        if (std::find(next_.begin() + first_[x], next_.end(), y) == next_.end()) next_.push_back(y);
      }
    }
    first_[fabric.size()] = static_cast<int>(next_.size());
  }
  std::span<const int> neighbours(int x) const { return {next_.data() + first_[x], next_.data() + first_[x + 1]}; }

 private:
  std::vector<int> first_;  // per node: where its neighbours start in next_
  std::vector<int> next_;
};

// Per channel (ChannelIndex), the egress ports of the next switch a route
// takes after it; one such graph per SL.
using PortSet = std::array<uint64_t, 4>;
using Dependencies = std::array<std::vector<PortSet>, kVls>;

int default_sl(const AuditInput& in, int lid) {
  return lid < static_cast<int>(in.dest_sl.size()) ? std::min<int>(in.dest_sl[lid], kVls - 1) : 0;
}

// The VL of SL `sl` on out port `out` of `node` for packets that came in on `in`.
int vl_of(const AuditInput& in, int node, int in_port, int out, int sl) {
  if (in.sl2vl_ports != nullptr)
    if (const Sl2VlTables::Row* row = in.sl2vl_ports->find(node, in_port, out)) return std::min<int>((*row)[sl], kVls - 1);
  return sl < static_cast<int>(in.sl2vl.size()) ? std::min<int>(in.sl2vl[sl], kVls - 1) : sl;
}

// Per SL, the VLs any cabled in port of any switch maps it to on any out port.
std::array<uint16_t, kVls> vls_of_sls(const AuditInput& in) {
  std::array<uint16_t, kVls> out{};
  if (in.sl2vl_ports == nullptr) {
    for (int sl = 0; sl < kVls; ++sl) out[sl] = static_cast<uint16_t>(1u << vl_of(in, -1, 0, 0, sl));
    return out;
  }
  for (int x = 0; x < in.fabric.size(); ++x) {
    const Node& node = in.fabric.node(x);
    if (!node.is_switch()) continue;
    for (int o = 1; o <= node.num_ports; ++o)
      for (int i = 1; i <= node.num_ports; ++i)
        if (node.ports[o].peer.valid() && node.ports[i].peer.valid())
          for (int sl = 0; sl < kVls; ++sl) out[sl] |= static_cast<uint16_t>(1u << vl_of(in, x, i, o, sl));
  }
  return out;
}

// One worker's share: a block of destinations.
class Auditor {
 public:
  Auditor(const AuditInput& in, const LftColumns& columns, const Senders& senders, const ChannelIndex& channels,
          const std::vector<int>& pieces, const SwitchGraph& graph, bool folded)
      : in_(in), senders_(senders), channels_(channels), pieces_(pieces), folded_(folded),
        switches_(columns.switches()), engine_(in.fabric, in.levels, in.lids, columns), graph_(graph),
        used_(in.fabric.size(), false) {
    for (int x : switches_) {
      if (pieces_[x] >= static_cast<int>(switches_in_piece_.size())) switches_in_piece_.resize(pieces_[x] + 1, 0);
      ++switches_in_piece_[pieces_[x]];
    }
    for (const SenderGroup& group : senders_.groups) grouped_cas_ += static_cast<long>(group.members.size());
    for (const std::vector<int>& groups : senders_.groups_on) {
      long members = 0;
      for (int g : groups) members += static_cast<long>(senders_.groups[g].members.size());
      senders_on_.push_back(members);
    }
  }

  void audit_destination(int d) {
    if (in_.count_non_minimal) distances_to(d);
    const int d_entry = entry_switch(in_.fabric, d);
    for (size_t k = 0; k < senders_.offsets.size(); ++k) {
      const int offset = senders_.offsets[k];
      const int lid = in_.lids.base[d] + offset;
      const bool owned = lid < static_cast<int>(in_.lids.owner.size()) && in_.lids.owner[lid] == d;
      if (owned) engine_.walk(lid);  // every switch: switches send to every LID too
      // On a folded Clos: whether every sender of the column is delivered
      // going only up, then only down. Where every switch delivers so (the
      // common case), so does every sender with an entry switch, all in d's
      // piece: they only count (unless their paths are weighed against the shortest).
      bool up_down_column = folded_;
      if (owned && !in_.count_non_minimal && engine_.all_up_down())
        counts_.pairs += senders_on_[k] - in_group_on(d, d_entry, offset);
      else
        up_down_column = judge_senders(d, d_entry, lid, owned, k);
      for (size_t i = 0; i < senders_.stray.size(); ++i) {
        const int s = senders_.stray[i];
        if (s == d || (senders_.stray_offset[i] >= 0 && senders_.stray_offset[i] != offset)) continue;
        const PortRef peer = in_.fabric.node(s).num_ports >= 1 ? in_.fabric.node(s).ports[1].peer : PortRef{};
        if (peer.node != d && pieces_[s] != pieces_[d]) {
          ++counts_.disconnected;
          continue;
        }
        ++counts_.pairs;
        if (peer.node == d) continue;
        ++counts_.unreachable;
        if (examples_[kUnreachable].size() < kExamplesPerKind)
          add_example(kUnreachable, describe(in_, s, d, lid, kUnreachable, 0));
      }
      if (!owned) continue;
      for_each_sl(d, lid, senders_.groups_on[k], [&](int sl, const std::vector<int>& groups) {
        if (delivers_any(d, groups)) counts_.sls_used |= static_cast<uint16_t>(1u << sl);
        // The whole column's verdict was taken while judging; a share of it (per-pair SLs) needs its own.
        const bool up_down = &groups == &senders_.groups_on[k] ? up_down_column : column_up_down(d, groups);
        if (up_down && !turned_[sl]) {
          deferred_[sl].push_back({d, static_cast<int>(k)});
        } else {
          turned_[sl] = true;
          record_dependencies(d, groups, sl);
        }
      });
      audit_switch_sources(lid, d);
    }
    // Switches send to the LIDs of d's range no CA sends on too.
    for (int offset = 0; offset < in_.lids.lids_per_ca(); ++offset) {
      const int lid = in_.lids.base[d] + offset;
      if (std::ranges::binary_search(senders_.offsets, offset) || lid >= static_cast<int>(in_.lids.owner.size()) ||
          in_.lids.owner[lid] != d)
        continue;
      engine_.walk(lid);
      audit_switch_sources(lid, d);
    }
  }

  // Counts the routes of the groups sending on offset k to `lid` of CA d,
  // judging each group's at its entry switch; whether all go up, then down
  // (on a folded Clos).
  bool judge_senders(int d, int d_entry, int lid, bool owned, size_t k) {
    bool up_down_column = folded_;
    for (int g : senders_.groups_on[k]) {
      const SenderGroup& group = senders_.groups[g];
      // The members share every outcome: count them at once, describe the first.
      // Only the group at d's own switch can hold d.
      const bool has_d = group.entry == d_entry && std::ranges::binary_search(group.members, d);
      const long senders = static_cast<long>(group.members.size()) - has_d;
      if (senders == 0) continue;
      if (pieces_[group.entry] != pieces_[d]) {
        counts_.disconnected += senders;
        continue;
      }
      // The member named in examples; read only then (it costs a cache miss per group).
      auto s = [&] { return group.members[0] != d ? group.members[0] : group.members[1]; };
      counts_.pairs += senders;
      if (owned) {
        judge(s, d, lid, group.entry, senders);
        const Step& step = engine_.at(group.entry);
        up_down_column = up_down_column && step.outcome == Trace::Outcome::kDelivered && step.up_down;
      } else {
        counts_.unreachable += senders;
        if (examples_[kUnreachable].size() < kExamplesPerKind)
          add_example(kUnreachable, fmt::format("{} → {}: LID {:#x} is not {}'s", name_of(in_.fabric, s()),
                                                name_of(in_.fabric, d), lid, name_of(in_.fabric, d)));
      }
    }
    return up_down_column;
  }

  // The routes to switch `x`'s LID: from every CA (PMA queries) and every other switch.
  void audit_switch_destination(int x) {
    const int lid = in_.lids.base[x];
    if (lid <= 0 || lid >= static_cast<int>(in_.lids.owner.size()) || in_.lids.owner[lid] != x) return;
    engine_.walk(lid);
    // Where every switch delivers (all in x's piece), every group's CAs only count.
    if (engine_.all_deliver()) {
      counts_.switch_pairs += grouped_cas_;
    } else {
      judge_switch_destination(x, lid);
    }
    audit_switch_sources(lid, x);
  }

  // Counts and judges every CA's route to switch `x`'s LID, group by group.
  void judge_switch_destination(int x, int lid) {
    for (const SenderGroup& group : senders_.groups) {  // each CA is in one group
      if (pieces_[group.entry] != pieces_[x]) continue;
      const long members = static_cast<long>(group.members.size());
      counts_.switch_pairs += members;
      judge_switch_pair(in_.fabric.node(group.members[0]).display_name(), group.entry, x, lid, members);
    }
  }

  // Counts the walked column's routes from every switch but `owner` to
  // `lid` (management traffic: PMA answers, traps) as switch pairs, and
  // adds their channel dependencies on the LID's SL: they share the VLs
  // with the CAs' traffic, so a turn only they make can close a credit loop.
  void audit_switch_sources(int lid, int owner) {
    const long sources = switches_in_piece_[pieces_[owner]] - in_.fabric.node(owner).is_switch();
    counts_.switch_pairs += sources;
    // Where every switch delivers (all in the owner's piece), none is judged.
    const bool all_deliver = engine_.all_deliver();
    bool up_down = folded_ && (!all_deliver || engine_.all_up_down()), delivered = all_deliver && sources > 0;
    if (!all_deliver) {
      for (int x : switches_) {
        if (x == owner || pieces_[x] != pieces_[owner]) continue;
        const Step& step = engine_.at(x);
        up_down = up_down && step.outcome == Trace::Outcome::kDelivered && step.up_down;
        if (step.outcome != Trace::Outcome::kDelivered) judge_switch_pair(in_.fabric.node(x).display_name(), x, owner, lid, 1);
        else delivered = true;
      }
    }
    const int sl = std::min(default_sl(in_, lid), kVls - 1);
    if (delivered) counts_.switch_sls_used |= static_cast<uint16_t>(1u << sl);
    if (!in_.count_switch_credit_loops) return;
    if (up_down && !switch_turned_[sl]) {
      deferred_switch_columns_[sl].push_back(lid);
    } else {
      switch_turned_[sl] = true;
      record_column_dependencies(sl);
    }
  }

  // Adds the channel pairs of every switch's route in the walked column to the switches' graph.
  void record_column_dependencies(int sl) {
    if (switch_deps_[sl].empty()) switch_deps_[sl].assign(channels_.size(), PortSet{});
    for (int x : switches_) {
      const Step& step = engine_.at(x);
      if (step.next < 0) continue;
      // The next hop is a channel too when it ends at a switch: the owner of a switch LID.
      const uint8_t port = engine_.at(step.next).port;
      if (port == kNoPath || port == 0 || port > in_.fabric.node(step.next).num_ports) continue;
      const PortRef peer = in_.fabric.peer({step.next, port});
      if (!peer.valid() || !in_.fabric.node(peer.node).is_switch()) continue;
      switch_deps_[sl][channels_.of({x, step.port})][port / 64] |= uint64_t{1} << (port % 64);
    }
  }

  // Counts `senders` routes to `lid` that enter at switch `entry` and fail there or after.
  void judge_switch_pair(const std::string& source, int entry, int owner, int lid, long senders) {
    const Step& step = engine_.at(entry);
    if (step.outcome == Trace::Outcome::kDelivered) return;
    counts_.switch_unreachable += senders;
    if (examples_[kSwitchTraffic].size() >= kExamplesPerKind) return;
    int at = entry;  // where the route ends
    for (size_t hops = 0; hops < switches_.size() && engine_.at(at).next >= 0; ++hops) at = engine_.at(at).next;
    const Step& end = engine_.at(at);
    const std::string where = step.outcome == Trace::Outcome::kLoop ? "loop at " + port_text(in_.fabric, {at, end.port})
                              : end.outcome == Trace::Outcome::kDeadPort
                                  ? "dead port at " + port_text(in_.fabric, {at, end.port})
                                  : fmt::format("no route at {} (LFT entry {:#04x})", name_of(in_.fabric, at), end.port);
    add_example(kSwitchTraffic, fmt::format("{} → {} (LID {:#x}, switch traffic): {}", source,
                                            name_of(in_.fabric, owner), lid, where));
  }

  // Records the columns deferred on the SLs that must be recorded after all
  // (`replay`: those sharing a VL with an SL some auditor found a turn on).
  void replay_deferred(const std::array<bool, kVls>& replay) {
    for (int sl = 0; sl < kVls; ++sl) {
      if (!replay[sl]) continue;
      for (const auto& [destination, k] : deferred_[sl]) {
        const int d = destination;  // clang 14 lambdas cannot capture structured bindings
        const int lid = in_.lids.base[d] + senders_.offsets[k];
        engine_.walk(lid, senders_.entries_on[k]);
        for_each_sl(d, lid, senders_.groups_on[k], [&](int s, const std::vector<int>& groups) {
          if (s == sl) record_dependencies(d, groups, sl);
        });
      }
      deferred_[sl].clear();
      for (int lid : deferred_switch_columns_[sl]) {
        engine_.walk(lid);
        record_column_dependencies(sl);
      }
      deferred_switch_columns_[sl].clear();
    }
  }

  const std::array<bool, kVls>& turned() const { return turned_; }
  const std::array<bool, kVls>& switch_turned() const { return switch_turned_; }

  // 1 when CA d is a member of a sender group at its entry switch `d_entry` sending on `offset`.
  int in_group_on(int d, int d_entry, int offset) const {
    if (d_entry < 0) return 0;
    for (int g : senders_.groups_at[d_entry]) {
      const SenderGroup& group = senders_.groups[g];
      if (group.sends_on(offset) && std::ranges::binary_search(group.members, d)) return 1;
    }
    return 0;
  }

  // Folds another worker's results (of later destinations) into this one.
  void absorb(const Auditor& other) {
    counts_.pairs += other.counts_.pairs;
    counts_.disconnected += other.counts_.disconnected;
    counts_.unreachable += other.counts_.unreachable;
    counts_.loops += other.counts_.loops;
    counts_.updown_violations += other.counts_.updown_violations;
    counts_.non_minimal += other.counts_.non_minimal;
    counts_.switch_pairs += other.counts_.switch_pairs;
    counts_.switch_unreachable += other.counts_.switch_unreachable;
    counts_.sls_used |= other.counts_.sls_used;
    counts_.switch_sls_used |= other.counts_.switch_sls_used;
    for (int kind = 0; kind < kKinds; ++kind)
      for (const std::string& text : other.examples_[kind]) add_example(static_cast<Kind>(kind), text);
    merge_into(deps_, other.deps_);
    merge_into(switch_deps_, other.switch_deps_);
  }

  // Adds the channel dependencies of a multicast group's packets on its SL.
  void add_multicast(const McastForwarding& group) {
    const int sl = std::min<int>(group.sl, kVls - 1);
    counts_.sls_used |= 1u << sl;
    for_each_multicast_dependency(in_.fabric, group, [&](PortRef channel, int out) {
      dependencies(sl)[channels_.of(channel)][out / 64] |= uint64_t{1} << (out % 64);
    });
  }

  Correctness& counts() { return counts_; }
  const Dependencies& deps() const { return deps_; }
  /// The CAs' dependencies and the switches' own routes' together.
  Dependencies all_deps() const {
    Dependencies all = deps_;
    merge_into(all, switch_deps_);
    return all;
  }
  void add_example(Kind kind, const std::string& text) {
    if (static_cast<int>(examples_[kind].size()) < kExamplesPerKind) examples_[kind].push_back(text);
  }
  const std::array<std::vector<std::string>, kKinds>& examples() const { return examples_; }

 private:
  // The outcome of `senders` routes that share source s()'s entry switch and LID.
  template <class Source>
  void judge(Source s, int d, int lid, int entry, long senders) {
    const Step& step = engine_.at(entry);
    auto count = [&](Kind kind, long& counter, int shortest) {
      counter += senders;
      if (examples_[kind].size() < kExamplesPerKind) add_example(kind, describe(in_, s(), d, lid, kind, shortest));
    };
    switch (step.outcome) {
      case Trace::Outcome::kNoRoute:
      case Trace::Outcome::kDeadPort: count(kUnreachable, counts_.unreachable, 0); return;
      case Trace::Outcome::kLoop: count(kLoop, counts_.loops, 0); return;
      case Trace::Outcome::kDelivered: break;
    }
    if (folded_ && !step.up_down) count(kUpDown, counts_.updown_violations, 0);
    // Both paths start with the source's cable; the rest is the entry switch's hops or its distance to d.
    if (in_.count_non_minimal && distance_[entry] >= 0 && step.hops > distance_[entry])
      count(kNonMinimal, counts_.non_minimal, distance_[entry] + 1);
  }

  // Links from every switch to CA d through switches (-1: none), by BFS
  // from the switches cabled to d. Kept while the next destination has the
  // same neighbours, as the CAs of one leaf do.
  void distances_to(int d) {
    std::vector<int> neighbours;
    for (const Port& port : in_.fabric.node(d).ports)
      if (port.peer.valid() && in_.fabric.node(port.peer.node).is_switch()) neighbours.push_back(port.peer.node);
    if (neighbours == bfs_from_ && !distance_.empty()) return;
    bfs_from_ = neighbours;
    distance_.assign(in_.fabric.size(), -1);
    queue_.clear();
    for (int x : neighbours) {
      if (distance_[x] >= 0) continue;
      distance_[x] = 1;
      queue_.push_back(x);
    }
    for (size_t head = 0; head < queue_.size(); ++head) {
      const int x = queue_[head];
      for (int y : graph_.neighbours(x)) {
        if (distance_[y] >= 0) continue;
        distance_[y] = distance_[x] + 1;
        queue_.push_back(y);
      }
    }
  }

  // ours |= theirs, SL by SL (an SL either has no graph yet or one per channel).
  void merge_into(Dependencies& ours, const Dependencies& theirs) const {
    for (int sl = 0; sl < kVls; ++sl) {
      if (theirs[sl].empty()) continue;
      if (ours[sl].empty()) ours[sl].assign(channels_.size(), PortSet{});
      for (size_t c = 0; c < ours[sl].size(); ++c)
        for (int w = 0; w < 4; ++w) ours[sl][c][w] |= theirs[sl][c][w];
    }
  }

  std::vector<PortSet>& dependencies(int sl) {
    if (deps_[sl].empty()) deps_[sl].assign(channels_.size(), PortSet{});
    return deps_[sl];
  }

  // Calls visit(sl, groups) for each SL the senders of a column use, with
  // the groups holding a sender on it (the column's groups when no pair to
  // `lid` has an SL of its own).
  template <class Visit>
  void for_each_sl(int d, int lid, const std::vector<int>& groups, Visit visit) {
    const int base = default_sl(in_, lid);
    // Iterators, not ranges::equal_range: clang 14 cannot destructure libstdc++ 12's subrange.
    const auto first = std::ranges::lower_bound(in_.sl_exceptions, lid, {}, &SlException::lid);
    const auto last = std::ranges::upper_bound(in_.sl_exceptions, lid, {}, &SlException::lid);
    if (first == last) {
      visit(base, groups);
      return;
    }
    for (std::vector<int>& list : by_sl_) list.clear();
    for (int g : groups) {
      uint32_t sls = 0;
      for (int s : senders_.groups[g].members) {
        if (s == d) continue;
        const auto hit = std::ranges::lower_bound(first, last, s, {}, &SlException::source);
        sls |= 1u << (hit != last && hit->source == s ? std::min<int>(hit->sl, kVls - 1) : base);
      }
      for (; sls != 0; sls &= sls - 1) by_sl_[std::countr_zero(sls)].push_back(g);
    }
    for (int sl = 0; sl < kVls; ++sl)
      if (!by_sl_[sl].empty()) visit(sl, by_sl_[sl]);
  }

  // Whether some sender of the walked column (other than d) is delivered.
  bool delivers_any(int d, const std::vector<int>& groups) const {
    return std::ranges::any_of(groups, [&](int g) {
      const SenderGroup& group = senders_.groups[g];
      if (group.members.size() == 1 && group.members[0] == d) return false;
      return pieces_[group.entry] == pieces_[d] && engine_.at(group.entry).outcome == Trace::Outcome::kDelivered;
    });
  }

  // Whether every sender of the walked column is delivered going only up,
  // then only down, on a folded Clos.
  bool column_up_down(int d, const std::vector<int>& groups) const {
    if (!folded_) return false;
    for (int g : groups) {
      const SenderGroup& group = senders_.groups[g];
      if (group.members.size() == 1 && group.members[0] == d) continue;
      if (pieces_[group.entry] != pieces_[d]) continue;
      const Step& step = engine_.at(group.entry);
      if (step.outcome != Trace::Outcome::kDelivered || !step.up_down) return false;
    }
    return true;
  }

  // Marks the switches the senders' paths for this column pass and adds their channel pairs.
  void record_dependencies(int d, const std::vector<int>& groups, int sl) {
    touched_.clear();
    for (int g : groups) {
      const SenderGroup& group = senders_.groups[g];
      if (group.members.size() == 1 && group.members[0] == d) continue;
      for (int x = group.entry; x >= 0 && !used_[x]; x = engine_.at(x).next) {
        used_[x] = true;
        touched_.push_back(x);
      }
    }
    for (int x : touched_) {
      used_[x] = false;
      const Step& step = engine_.at(x);
      if (step.next < 0 || engine_.at(step.next).next < 0) continue;
      const uint8_t port = engine_.at(step.next).port;
      dependencies(sl)[channels_.of({x, step.port})][port / 64] |= uint64_t{1} << (port % 64);
    }
  }

  const AuditInput& in_;
  const Senders& senders_;
  const ChannelIndex& channels_;
  const std::vector<int>& pieces_;  // cabling_pieces()
  const bool folded_;
  const std::vector<int>& switches_;  // every switch, in node order
  std::vector<long> switches_in_piece_;  // per piece of the cabling (pieces_): its switches
  std::vector<long> senders_on_;  // per entry of senders_.offsets: the members of the groups sending on it
  long grouped_cas_ = 0;          // the members of every sender group
  PathEngine engine_;
  Correctness counts_;
  std::array<std::vector<std::string>, kKinds> examples_;
  Dependencies deps_;
  Dependencies switch_deps_;  // of switches' own routes (switch LIDs, and switches no CA route to the LID crosses)
  const SwitchGraph& graph_;
  std::vector<int> bfs_from_;  // the switches distance_ starts from
  std::vector<int> distance_;
  std::vector<int> queue_;     // distances_to's BFS queue
  std::vector<bool> used_;
  std::vector<int> touched_;
  std::array<bool, kVls> switch_turned_{};  // per SL: a column whose switch routes turn (or fail) was recorded
  std::array<bool, kVls> turned_{};  // per SL: a column with a route that turns (or fails) was recorded
  std::array<std::vector<std::pair<int, int>>, kVls> deferred_;  // per SL: up/down columns (d, offset index) not recorded
  std::array<std::vector<int>, kVls> deferred_switch_columns_;  // per SL: LIDs whose switch routes are all up/down, not recorded
  std::array<std::vector<int>, kVls> by_sl_;  // for_each_sl's lists
};

// The channel dependency graph over (channel, VL) nodes, numbered
// channel * kVls + VL, as adjacency lists (CSR).
struct VlGraph {
  std::vector<int> first;  // per node: where its successors start in `next`; one more at the end
  std::vector<int> next;

  int size() const { return static_cast<int>(first.size()) - 1; }
  template <class Visit>
  void for_each_successor(int n, Visit visit) const {
    for (int i = first[n]; i < first[n + 1]; ++i) visit(next[i]);
  }
};

// The per-SL channel graphs turned into one over (channel, VL) through SL2VL.
VlGraph vl_graph(const AuditInput& in, const ChannelIndex& channels, const Dependencies& deps) {
  std::vector<std::pair<int, int>> edges;
  for (int sl = 0; sl < kVls; ++sl) {
    if (deps[sl].empty()) continue;
    for (int c = 0; c < channels.size(); ++c) {
      if (deps[sl][c] == PortSet{}) continue;
      const PortRef from = channels.at(c);
      const PortRef next = in.fabric.peer(from);
      uint32_t held = 0;  // the VLs the packets may hold on c
      const Node& node = in.fabric.node(from.node);
      for (int i = 1; i <= node.num_ports; ++i)
        if (node.ports[i].peer.valid()) held |= 1u << vl_of(in, from.node, i, from.port, sl);
      for (int w = 0; w < 4; ++w)
        for (uint64_t bits = deps[sl][c][w]; bits != 0; bits &= bits - 1) {
          const int port = w * 64 + std::countr_zero(bits);
          const int to = channels.of({next.node, port}) * kVls + vl_of(in, next.node, next.port, port, sl);
          for (uint32_t vls = held; vls != 0; vls &= vls - 1) edges.push_back({c * kVls + std::countr_zero(vls), to});
        }
    }
  }
  std::ranges::sort(edges);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  VlGraph graph;
  graph.first.assign(static_cast<size_t>(channels.size()) * kVls + 1, 0);
  for (const auto& [from, to] : edges) ++graph.first[from + 1];
  for (size_t n = 1; n < graph.first.size(); ++n) graph.first[n] += graph.first[n - 1];
  graph.next.reserve(edges.size());
  for (const auto& edge : edges) graph.next.push_back(edge.second);
  return graph;
}

// Tarjan's strongly connected components, iterative; the ones with a cycle.
std::vector<std::vector<int>> cyclic_components(const VlGraph& graph) {
  const int n = graph.size();
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::vector<int>> out;
  std::vector<std::pair<int, int>> frames;  // node, its next successor's place in graph.next
  int counter = 0;
  auto open = [&](int c) {
    index[c] = low[c] = counter++;
    stack.push_back(c);
    on_stack[c] = true;
    frames.push_back({c, graph.first[c]});
  };
  for (int root = 0; root < n; ++root) {
    if (index[root] >= 0 || graph.first[root] == graph.first[root + 1]) continue;
    open(root);
    while (!frames.empty()) {
      auto& [c, at] = frames.back();
      if (at < graph.first[c + 1]) {
        const int next = graph.next[at++];
        if (index[next] < 0) {
          open(next);
        } else if (on_stack[next]) {
          low[c] = std::min(low[c], index[next]);
        }
        continue;
      }
      const int done = c;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::vector<int> component;
      int member;
      do {
        member = stack.back();
        stack.pop_back();
        on_stack[member] = false;
        component.push_back(member);
      } while (member != done);
      bool self_loop = false;
      graph.for_each_successor(done, [&](int next) { self_loop |= next == done; });
      if (component.size() > 1 || self_loop) out.push_back(std::move(component));
    }
  }
  return out;
}

// A shortest cycle through the component's first node, by BFS inside it.
std::string describe_cycle(const Fabric& fabric, const ChannelIndex& channels, const VlGraph& graph,
                           const std::vector<int>& component) {
  std::vector<int> parent(graph.size(), -2);
  for (int c : component) parent[c] = -1;
  const int start = *std::ranges::min_element(component);
  std::deque<int> queue{start};
  parent[start] = start;
  int closing = -1;
  while (!queue.empty() && closing < 0) {
    const int c = queue.front();
    queue.pop_front();
    graph.for_each_successor(c, [&](int next) {
      if (closing >= 0) return;
      if (next == start) {
        closing = c;
      } else if (parent[next] == -1) {
        parent[next] = c;
        queue.push_back(next);
      }
    });
  }
  std::vector<int> cycle;
  for (int c = closing; c != start; c = parent[c]) cycle.push_back(c);
  cycle.push_back(start);
  std::ranges::reverse(cycle);
  const bool one_vl = std::ranges::all_of(cycle, [&](int n) { return n % kVls == start % kVls; });
  auto hop = [&](int n) {
    const std::string port = port_text(fabric, channels.at(n / kVls));
    return one_vl ? port : fmt::format("{} (VL {})", port, n % kVls);
  };
  std::string text = one_vl ? fmt::format("credit loop on VL {} ({} channels in the region):", start % kVls,
                                          component.size())
                            : fmt::format("credit loop across VLs ({} channel VLs in the region):", component.size());
  for (int n : cycle) text += " " + hop(n) + " →";
  return text + " " + hop(start);
}

// CAs with a cable but no LID in the tables: no route leads to or from them,
// so every pair they are part of is unreachable (disconnected when no cable
// path joins its CAs); the first is named.
void count_unaddressed(const AuditInput& input, const Senders& senders, const std::vector<int>& pieces,
                       Auditor& all) {
  long cabled = 0;
  int first = -1;
  std::map<int, std::pair<long, long>> by_piece;  // piece -> (cabled CAs, of them with a LID)
  for (int i = 0; i < input.fabric.size(); ++i) {
    const Node& node = input.fabric.node(i);
    if (node.is_switch() || std::ranges::none_of(node.ports, [](const Port& p) { return p.peer.valid(); })) continue;
    ++cabled;
    const bool addressed = i < static_cast<int>(input.lids.base.size()) && input.lids.base[i] != 0;
    ++by_piece[pieces[i]].first;
    by_piece[pieces[i]].second += addressed;
    if (!addressed && first < 0) first = i;
  }
  const long addressed = static_cast<long>(senders.cas.size());
  const long missing = cabled - addressed;
  if (missing <= 0) return;
  const long per_pair = input.lids.lids_per_ca();
  long joined = 0;  // pairs with a CA without a LID whose CAs a cable path joins
  for (const auto& [piece, counts] : by_piece)
    joined += counts.first * (counts.first - 1) - counts.second * (counts.second - 1);
  const long pairs = joined * per_pair;
  all.counts().pairs += pairs;
  all.counts().unreachable += pairs;
  all.counts().disconnected += (cabled * (cabled - 1) - addressed * (addressed - 1) - joined) * per_pair;
  if (pairs == 0) return;
  all.add_example(kUnreachable, fmt::format("{} has no LID in the tables (nor have {} CAs in all): no route to "
                                            "or from it", name_of(input.fabric, first), missing));
}

}  // namespace

Correctness check_correctness(const AuditInput& input) {
  const Senders senders = group_senders(input, {OffsetChoice::Mode::kAllOffsets, 0, {}});
  const ChannelIndex channels(input.fabric);
  const bool folded = is_folded_clos(input.fabric, input.levels);
  const std::vector<int> pieces = cabling_pieces(input.fabric);
  const SwitchGraph graph(input.fabric);
  // Destinations by leaf, so one BFS serves all CAs of a leaf, where paths
  // are weighed against the shortest; else CAs and switches by LID, each
  // worker turning the tables a tile of LIDs at a time (no copy of them).
  const bool by_leaf = input.count_non_minimal;
  std::vector<int> destinations = senders.cas;
  if (by_leaf) std::ranges::stable_sort(destinations, {}, [&](int d) { return entry_switch(input.fabric, d); });
  for (int x = 0; x < input.fabric.size(); ++x)
    if (input.fabric.node(x).is_switch()) destinations.push_back(x);  // after the CAs, in node order
  if (!by_leaf) std::ranges::stable_sort(destinations, {}, [&](int node) { return input.lids.base[node]; });
  const int workers = worker_count(static_cast<long>(destinations.size()));
  std::vector<Auditor> auditors;
  const LftColumns columns(input.fabric, input.lfts,
                           by_leaf ? LftColumns::Layout::kWhole : LftColumns::Layout::kTiles);
  for (int w = 0; w < workers; ++w) auditors.emplace_back(input, columns, senders, channels, pieces, graph, folded);
  for_each_block(static_cast<long>(destinations.size()), workers, [&](int w, long begin, long end) {
    for (long i = begin; i < end; ++i) {
      const int d = destinations[i];
      if (input.fabric.node(d).is_switch())
        auditors[w].audit_switch_destination(d);
      else
        auditors[w].audit_destination(d);
    }
  });
  // An SL's up/down columns count once an SL sharing a VL with it turned.
  const std::array<uint16_t, kVls> vls = vls_of_sls(input);
  uint16_t turned_vls = 0, switch_turned_vls = 0;
  for (const Auditor& auditor : auditors)
    for (int sl = 0; sl < kVls; ++sl) {
      if (auditor.turned()[sl]) turned_vls |= vls[sl];
      if (auditor.switch_turned()[sl]) switch_turned_vls |= vls[sl];
    }
  // Multicast packets turn every way a tree lets them: their VLs need the graph.
  if (input.mcast)
    for (const McastForwarding& group : *input.mcast) turned_vls |= vls[std::min<int>(group.sl, kVls - 1)];
  std::array<bool, kVls> replay{};
  for (int sl = 0; sl < kVls; ++sl) replay[sl] = (vls[sl] & (turned_vls | switch_turned_vls)) != 0;
  for_each_block(workers, workers, [&](int w, long, long) { auditors[w].replay_deferred(replay); });
  Auditor& all = auditors.front();
  for (int w = 1; w < workers; ++w) all.absorb(auditors[w]);
  if (input.mcast)
    for (const McastForwarding& group : *input.mcast) all.add_multicast(group);
  count_unaddressed(input, senders, pieces, all);
  for (int sl = 0; sl < kVls; ++sl) {
    if (all.counts().sls_used & (1u << sl)) all.counts().vls_used |= vls[sl];
    if (all.counts().switch_sls_used & (1u << sl)) all.counts().switch_vls_used |= vls[sl];
  }

  if (turned_vls != 0) {
    const VlGraph graph = vl_graph(input, channels, all.deps());
    for (const std::vector<int>& component : cyclic_components(graph)) {
      ++all.counts().credit_loops;
      all.add_example(kCreditLoop, describe_cycle(input.fabric, channels, graph, component));
    }
  }
  // Switch routes that only climb, then descend, were replayed where CA routes turn: they count there too.
  all.counts().switch_credit_loops = all.counts().credit_loops;
  if (input.count_switch_credit_loops && (turned_vls | switch_turned_vls) != 0) {
    const VlGraph graph = vl_graph(input, channels, all.all_deps());
    all.counts().switch_credit_loops = 0;
    for (const std::vector<int>& component : cyclic_components(graph)) {
      ++all.counts().switch_credit_loops;
      all.add_example(kCreditLoop, "with switches' own routes, " + describe_cycle(input.fabric, channels, graph, component));
    }
  }
  Correctness out = std::move(all.counts());
  for (const std::vector<std::string>& texts : all.examples())
    out.examples.insert(out.examples.end(), texts.begin(), texts.end());
  return out;
}

std::string describe(const OffsetChoice& choice) {
  switch (choice.mode) {
    case OffsetChoice::Mode::kPathBits: return "path bits";
    case OffsetChoice::Mode::kAllOffsets: return "all offsets, split evenly";
    case OffsetChoice::Mode::kFixed: break;
  }
  return fmt::format("fixed offset {}", choice.offset);
}

}  // namespace ftclos
