#include "schemes/switch_traffic.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/workers.h"
#include "detect/levels.h"
#include "paths/detour_layers.h"
#include "paths/switch_routes_legal.h"
#include "paths/updown_reach.h"
#include "schemes/path_bits_fallback.h"

namespace ftclos {
namespace {

// 16 bytes at a time (GCC/Clang vector extensions, as paths/updown_reach.cc):
// the scan reads every entry of every table, 21 MB on FT(36,3).
using Bytes = uint8_t __attribute__((vector_size(16)));

// Whether `table` has kNoPath where `owned` is 0xFF, over the first `count` entries.
bool has_hole(const uint8_t* table, const uint8_t* owned, size_t count) {
  Bytes any{};
  size_t lid = 0;
  for (; lid + 16 <= count; lid += 16) {
    Bytes entries, mask;
    std::memcpy(&entries, table + lid, sizeof entries);
    std::memcpy(&mask, owned + lid, sizeof mask);
    any |= reinterpret_cast<Bytes>(entries == kNoPath) & mask;
  }
  uint64_t words[2];
  std::memcpy(words, &any, sizeof words);
  bool hole = (words[0] | words[1]) != 0;
  for (; lid < count; ++lid) hole = hole || (table[lid] == kNoPath && owned[lid]);
  return hole;
}

// Per LID, whether some switch other than its owner has no entry for it.
std::vector<bool> lids_with_holes(const Fabric& fabric, const LidMap& lids, const Lfts& lfts) {
  const size_t count = static_cast<size_t>(lids.max_lid) + 1;
  std::vector<uint8_t> owned(count, 0);
  for (size_t lid = 1; lid < count; ++lid) owned[lid] = lids.owner[lid] >= 0 ? 0xFF : 0;
  // Blocks of switches on threads, each marking its own LIDs, joined after.
  const int workers = worker_count(fabric.size() / 256 + 1);
  std::vector<std::vector<uint8_t>> marks(workers, std::vector<uint8_t>(count, 0));
  for_each_block(fabric.size(), workers, [&](int w, long begin, long end) {
    for (int x = static_cast<int>(begin); x < end; ++x) {
      if (!fabric.node(x).is_switch()) continue;
      const std::vector<uint8_t>& table = lfts.port[x];
      if (table.size() >= count && !has_hole(table.data(), owned.data(), count)) continue;
      for (size_t lid = 1; lid < count; ++lid)
        if (owned[lid] && lids.owner[lid] != x && (lid >= table.size() || table[lid] == kNoPath)) marks[w][lid] = 1;
    }
  });
  std::vector<bool> holed(count, false);
  for (const std::vector<uint8_t>& mine : marks)
    for (size_t lid = 1; lid < count; ++lid)
      if (mine[lid]) holed[lid] = true;
  return holed;
}

// Completes one LID's column at a time; its scratch is reused across LIDs.
class Completer {
 public:
  Completer(const RoutingInput& input, Lfts& lfts)
      : fabric_(input.fabric), input_(input), lids_(input.lids), lfts_(lfts), state_(fabric_.size(), kUnknown),
        used_(fabric_.size(), false) {
    // GUID order, so that the entries written do not depend on the order nodes come in.
    for (int x = 0; x < fabric_.size(); ++x)
      if (fabric_.node(x).is_switch()) switches_.push_back(x);
    std::ranges::sort(switches_, [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
    entry_switches_ = entry_switches(fabric_, lids_);
  }

  long written() const { return written_; }
  long detoured() const { return detoured_; }

  void complete(int lid) {
    const int owner = lids_.owner[lid];
    const Exit exit = exit_of(fabric_, owner);
    if (exit.target < 0) return;
    std::fill(state_.begin(), state_.end(), kUnknown);
    for (int x : switches_) settle(x, lid, owner);
    // CA-to-CA routes to a CA's LID cross these switches: theirs stay as they are.
    std::fill(used_.begin(), used_.end(), false);
    if (!fabric_.node(owner).is_switch())
      for (int e : entry_switches_) mark_used(e, lid);
    std::vector<int> open;
    for (int x : switches_)
      if (state_[x] == kFails && !used_[x]) open.push_back(x);
    if (open.empty()) return;
    follow_rule(open, exit, lid);
    detour(open, lid);
  }

 private:
  enum State : uint8_t { kUnknown, kVisiting, kDelivers, kFails };

  uint8_t entry(int x, int lid) const { return lfts_.at_or_none(x, lid); }

  // The switch (or owner) `x`'s entry leads to; -1 when it leads nowhere.
  int next_of(int x, int lid) const {
    const uint8_t port = entry(x, lid);
    if (port == kNoPath || port == 0 || port > fabric_.node(x).num_ports) return -1;
    return fabric_.peer({x, port}).node;
  }

  void write(int x, int lid, int port) {
    std::vector<uint8_t>& table = lfts_.port[x];
    if (table.size() < static_cast<size_t>(lids_.max_lid) + 1) table.resize(lids_.max_lid + 1, kNoPath);
    table[lid] = static_cast<uint8_t>(port);
    state_[x] = kDelivers;
    ++written_;
  }

  // Whether a packet for `lid` at switch `x` reaches `owner`, memoized along its path.
  void settle(int x, int lid, int owner) {
    State result = kFails;
    for (int at = x;;) {
      if (state_[at] == kDelivers || state_[at] == kFails) {
        result = static_cast<State>(state_[at]);
        break;
      }
      if (state_[at] == kVisiting) break;  // a loop
      state_[at] = kVisiting;
      path_.push_back(at);
      if (at == owner) {
        result = kDelivers;
        break;
      }
      const int next = next_of(at, lid);
      if (next == owner) {
        result = kDelivers;
        break;
      }
      if (next < 0 || !fabric_.node(next).is_switch()) break;
      at = next;
    }
    for (int at : path_) state_[at] = result;
    path_.clear();
  }

  // Marks the switches a CA entering at `entry` crosses toward `lid` that do not deliver.
  void mark_used(int entry, int lid) {
    for (int at = entry; at >= 0 && fabric_.node(at).is_switch() && state_[at] == kFails && !used_[at];
         at = next_of(at, lid))
      used_[at] = true;
  }

  // Open switches that the up/down rule lets forward to a switch that
  // delivers do so, until none does: each step is legal where it is taken.
  void follow_rule(std::vector<int>& open, const Exit& exit, int lid) {
    if (!reach_) reach_ = std::make_unique<UpDownReach>(fabric_, input_.detection.levels);
    for (bool changed = true; changed;) {
      changed = false;
      for (int x : open) {
        // Most open switches have no up/down path at all (roots that miss a leaf): skip their ports.
        if (state_[x] != kFails || reach_->index(x) < 0 || reach_->index(exit.target) < 0 ||
            !reach_->in_updown(x, exit.target))
          continue;
        const int ports = fabric_.node(x).num_ports;
        for (int k = 0; k < ports; ++k) {
          const int port = 1 + (lid + k) % ports;  // rotated by LID: the filled entries spread over the ports
          const PortRef peer = fabric_.peer({x, port});
          if (!peer.valid() || state_[peer.node] != kDelivers || !reach_->allows(x, exit, port)) continue;
          write(x, lid, port);
          changed = true;
          break;
        }
      }
    }
  }

  // The rest (no up/down path from there) forward to a neighbour that
  // delivers, in rounds: round r settles the switches r hops from the
  // delivering ones, so each takes a shortest path over switch cables.
  void detour(const std::vector<int>& open, int lid) {
    std::vector<std::pair<int, int>>& settled = round_;  // (switch, port) of this round
    do {
      settled.clear();
      for (int x : open) {
        if (state_[x] != kFails) continue;
        const Node& node = fabric_.node(x);
        for (int port = 1; port <= node.num_ports; ++port) {
          const PortRef peer = node.ports[port].peer;
          if (peer.valid() && fabric_.node(peer.node).is_switch() && state_[peer.node] == kDelivers) {
            settled.emplace_back(x, port);
            break;
          }
        }
      }
      for (const auto& [x, port] : settled) write(x, lid, port);
      detoured_ += static_cast<long>(settled.size());
    } while (!settled.empty());
  }

  const Fabric& fabric_;
  const RoutingInput& input_;
  const LidMap& lids_;
  Lfts& lfts_;
  std::vector<int> switches_;        // in GUID order
  std::vector<int> entry_switches_;  // the switches CAs with LIDs enter at, once each
  std::vector<uint8_t> state_;       // per node, for the LID being completed
  std::vector<bool> used_;           // per node: a CA's route to the LID crosses it without delivering
  std::vector<int> path_;
  std::vector<std::pair<int, int>> round_;
  std::unique_ptr<UpDownReach> reach_;  // built at the first LID that needs it
  long written_ = 0, detoured_ = 0;
};

}  // namespace

long complete_switch_traffic(const RoutingInput& input, Routing& routing, const Lfts* previous) {
  std::vector<bool> holed = lids_with_holes(input.fabric, input.lids, routing.lfts);
  long written = 0;
  const bool folded_clos = is_folded_clos(input.fabric, input.detection.levels);
  if (folded_clos) {
    const LegalSwitchRoutes legal = make_switch_routes_legal(input, routing.lfts, routing.dest_sl, previous);
    if (legal.written > 0)
      routing.notes.push_back(fmt::format(
          "{} entries of switches' own routes (switch LIDs, and switches no CA route to the LID crosses) set so that "
          "every switch reaches every LID up, then down ({} of them turn at leaf {} or above it, the one place they "
          "may turn; {} take a shortest path: no legal one exists)",
          legal.written, legal.turned, input.fabric.node(legal.turn_leaf).display_name(), legal.illegal));
    if (legal.orphan >= 0)
      routing.notes.push_back(fmt::format("switch {} reaches the turn leaf {} no more going down: the routes from and "
                                          "to it turn at one switch below it instead, so the turn leaf stays",
                                          input.fabric.node(legal.orphan).display_name(),
                                          input.fabric.node(legal.turn_leaf).display_name()));
    written += legal.written;
    layer_switch_turns(input, legal, routing);
    // The LIDs it leaves (their CA routes turn, on SLs of their own) only get their holes filled.
    std::vector<bool> left(holed.size(), false);
    for (int lid : legal.left) left[lid] = holed[lid];
    holed = std::move(left);
  }
  Completer completer(input, routing.lfts);
  for (int lid = 1; lid < static_cast<int>(holed.size()); ++lid)
    if (holed[lid]) completer.complete(lid);
  routing.switch_turns_layered |= completer.detoured() > 0;
  if (completer.written() > 0)
    routing.notes.push_back(fmt::format(
        "{} entries no CA route uses filled so that every switch reaches every LID ({} of them where the up/down "
        "rule offers no port that delivers: a shortest path over switch cables, which may turn down then up)",
        completer.written(), completer.detoured()));
  // Off folded Clos nothing keeps switches' own routes (the scheme's, or
  // those filled here) from closing a credit loop with the CAs' on their SL;
  // on one, up/down keeps them apart only while every CA route is up/down
  // too (no SL but 0: attached hosts' and ANs' detours turn down-up).
  // There the LIDs move only to SLs the CA routes already use.
  const int highest_sl = routing.dest_sl.empty() ? 0 : *std::ranges::max_element(routing.dest_sl);
  if (!folded_clos || highest_sl > 0)
    settle_credit_loops(input, folded_clos ? highest_sl : std::min(input.data_vls, kMaxDetourSl + 1) - 1,
                        "LIDs reached by switches' own routes (PMA traffic)", routing);
  return written + completer.written();
}

Result<Routing> Scheme::route(const RoutingInput& input) const {
  Result<Routing> routing = route_tables(input);
  if (!routing.ok()) return routing;
  if (input.switch_traffic && !routes_by_other_schemes()) complete_switch_traffic(input, *routing);
  // auto's choice was weighed when the chosen scheme routed.
  if (routing->chosen.empty()) fall_back_to_offset_zero(input, *routing);
  return routing;
}

}  // namespace ftclos
