#include "audit/audit_walk.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include "core/aggregation_node.h"

namespace ftclos {
namespace {

// Where a hop from `from` to `to` goes, by level: +1 up, -1 down, 0 sideways.
int hop_direction(const Levels& levels, int from, int to) {
  if (std::max(from, to) >= static_cast<int>(levels.of.size())) return 0;
  const int a = levels.of[from], b = levels.of[to];
  return b > a ? 1 : b < a ? -1 : 0;
}

// The 8x8 block of bytes m[r] byte c moved to m[c] byte r: swaps of 4x4,
// then 2x2, then 1x1 blocks (byte c of a word read from memory is bits
// 8c..8c+7 on a little-endian machine).
void transpose_bytes(std::array<uint64_t, 8>& m) {
  static_assert(std::endian::native == std::endian::little);
  constexpr std::array<uint64_t, 3> kLowHalves = {0x00000000FFFFFFFFull, 0x0000FFFF0000FFFFull, 0x00FF00FF00FF00FFull};
  for (int stage = 0, s = 4; s >= 1; ++stage, s /= 2)
    for (int j = 0; j < 8; ++j) {
      if (j & s) continue;
      const uint64_t t = ((m[j] >> (8 * s)) ^ m[j + s]) & kLowHalves[stage];
      m[j + s] ^= t;
      m[j] ^= t << (8 * s);
    }
}

// Cells [first, end) x [k0, k_end) of the columns from the switches' tables
// (`sizes[k]` entries at `tables[k]`; kNoPath beyond), into `cells` whose
// first row is LID `row0`. Blocks of 8 LIDs by 8
// switches whose tables hold all 8 LIDs go as eight 8-byte reads, a
// transpose in registers and eight 8-byte writes; the rest byte by byte.
void copy_cells(const uint8_t* const* tables, const int* sizes, size_t width, int first, int end, size_t k0,
                size_t k_end, int row0, uint8_t* cells) {
  for (int lid = first; lid < end; lid += 8) {
    const int lids = std::min(8, end - lid);
    for (size_t k = k0; k < k_end; k += 8) {
      const size_t count = std::min<size_t>(8, k_end - k);
      bool whole = lids == 8 && count == 8;
      for (size_t c = 0; c < count && whole; ++c) whole = sizes[k + c] >= lid + 8;
      if (whole) {
        std::array<uint64_t, 8> m;
        for (size_t c = 0; c < 8; ++c) std::memcpy(&m[c], tables[k + c] + lid, 8);
        transpose_bytes(m);
        for (int r = 0; r < 8; ++r) std::memcpy(cells + static_cast<size_t>(lid - row0 + r) * width + k, &m[r], 8);
        continue;
      }
      for (int r = 0; r < lids; ++r)
        for (size_t c = 0; c < count; ++c)
          cells[static_cast<size_t>(lid - row0 + r) * width + k + c] =
              lid + r < sizes[k + c] ? tables[k + c][lid + r] : kNoPath;
    }
  }
}

}  // namespace

LftColumns::LftColumns(const Fabric& fabric, const Lfts& lfts, Layout layout) {
  for (int i = 0; i < fabric.size(); ++i) {
    if (!fabric.node(i).is_switch()) continue;
    switches_.push_back(i);
    const bool has = i < static_cast<int>(lfts.port.size());
    sizes_.push_back(has ? static_cast<int>(lfts.port[i].size()) : 0);
    tables_.push_back(has ? lfts.port[i].data() : nullptr);
    lids_ = std::max(lids_, sizes_.back());
  }
  if (layout == Layout::kTiles) return;
  const size_t width = switches_.size();
  // Uninitialized: every cell is written once below.
  cells_ = std::make_unique_for_overwrite<uint8_t[]>(static_cast<size_t>(lids_) * width);
  // In tiles of 64 LIDs by 64 switches, so that both the tables read and the
  // rows written stay in the first-level cache while a tile is copied.
  constexpr int kTile = 64;
  // Rows of tiles on threads: each writes its own rows.
  const long tile_rows = (lids_ + kTile - 1) / kTile;
  for_each_block(tile_rows, worker_count(tile_rows), [&](int, long begin, long end_row) {
    for (int first = static_cast<int>(begin) * kTile; first < std::min(static_cast<int>(end_row) * kTile, lids_);
         first += kTile)
      for (size_t k0 = 0; k0 < width; k0 += kTile)
        copy_cells(tables_.data(), sizes_.data(), width, first, std::min(first + kTile, lids_), k0,
                   std::min(k0 + kTile, width), 0, cells_.get());
  });
}

void LftColumns::copy_tile(int first, uint8_t* tile) const {
  const size_t width = switches_.size();
  constexpr size_t kSwitches = 64;  // switches per pass: the tables' lines and the rows written stay in cache
  for (size_t k0 = 0; k0 < width; k0 += kSwitches)
    copy_cells(tables_.data(), sizes_.data(), width, first, std::min(first + kTileLids, lids_), k0,
               std::min(k0 + kSwitches, width), first, tile);
}

namespace {

constexpr int kDeadLink = std::numeric_limits<int>::min();      // a port with no cable
constexpr int kNoTarget = std::numeric_limits<int>::min() + 1;  // no link is it

}  // namespace

PathEngine::PathEngine(const Fabric& fabric, const Levels& levels, const LidMap& lids, const LftColumns& columns)
    : lids_(lids), columns_(columns), switch_index_(fabric.size(), -1), is_switch_(fabric.size(), 0) {
  for (int i = 0; i < fabric.size(); ++i) {
    if (!fabric.node(i).is_switch()) continue;
    is_switch_[i] = 1;
    switch_index_[i] = static_cast<int>(switches_.size());
    switches_.push_back(i);
  }
  for (int x : switches_) {
    const Node& node = fabric.node(x);
    num_ports_.push_back(node.num_ports);
    first_port_.push_back(static_cast<int>(link_.size()));
    for (int p = 0; p <= node.num_ports; ++p) {
      const int peer = node.ports[p].peer.node;
      link_.push_back(peer < 0 ? kDeadLink : is_switch_[peer] ? switch_index_[peer] : ~peer);
      dir_.push_back(static_cast<int8_t>(peer < 0 ? 0 : hop_direction(levels, x, peer)));
    }
  }
  const auto level = [&](int k) {
    return switches_[k] < static_cast<int>(levels.of.size()) ? levels.of[switches_[k]] : -1;
  };
  for (int k = 0; k < static_cast<int>(switches_.size()); ++k) top_down_.push_back(k);
  std::ranges::stable_sort(top_down_, [&](int a, int b) { return level(a) > level(b); });
  steps_.resize(switches_.size());
  next_.assign(switches_.size(), -1);
  state_.assign(switches_.size(), 0);
  stack_.resize(switches_.size());
}

const uint8_t* PathEngine::column(int lid) {
  if (columns_.whole()) return columns_.column(lid);
  const size_t width = columns_.switches().size();
  if (tile_first_ < 0 || lid < tile_first_ || lid >= tile_first_ + LftColumns::kTileLids) {
    tile_first_ = lid - lid % LftColumns::kTileLids;
    tile_.resize(static_cast<size_t>(LftColumns::kTileLids) * width);
    columns_.copy_tile(tile_first_, tile_.data());
  }
  return tile_.data() + static_cast<size_t>(lid - tile_first_) * width;
}

inline int PathEngine::settle_or_next(int k) {
  Step& step = steps_[k];
  step = Step{};
  if (k == target_index_) {  // a switch's own LID: arrived
    step.outcome = Trace::Outcome::kDelivered;
    step.up_down = step.down_only = true;
  } else {
    step.port = column_ ? column_[k] : kNoPath;
    if (!leads_out(k, step.port)) {
      step.outcome = Trace::Outcome::kNoRoute;
    } else {
      const int at = first_port_[k] + step.port;
      const int link = link_[at];
      if (link == kDeadLink) {
        step.outcome = Trace::Outcome::kDeadPort;
      } else if (link == target_index_ || link == target_ca_) {
        step.outcome = Trace::Outcome::kDelivered;
        step.hops = 1;
        step.up_down = dir_[at] != 0;
        step.down_only = dir_[at] < 0;
      } else if (link < 0) {
        step.outcome = Trace::Outcome::kNoRoute;  // handed to the wrong CA
      } else {
        step.next = switches_[link];
        next_[k] = link;
        return link;
      }
    }
  }
  settled(k);
  return -1;
}

inline void PathEngine::settled(int k) {
  state_[k] = 2;
  undelivered_ += steps_[k].outcome != Trace::Outcome::kDelivered;
  not_up_down_ += !steps_[k].up_down;
}

inline void PathEngine::derive(int k) {
  Step& step = steps_[k];
  const Step& after = steps_[next_[k]];
  step.outcome = after.outcome;
  if (after.outcome == Trace::Outcome::kDelivered) {
    const int dir = dir_[first_port_[k] + step.port];
    step.hops = static_cast<uint16_t>(after.hops + 1);
    step.up_down = (dir > 0 && after.up_down) || (dir < 0 && after.down_only);
    step.down_only = dir < 0 && after.down_only;
  }
  state_[k] = 2;
}

void PathEngine::start_walk(int lid) {
  const int target = lid >= 0 && lid < static_cast<int>(lids_.owner.size()) ? lids_.owner[lid] : -1;
  target_index_ = target >= 0 && is_switch_[target] ? switch_index_[target] : -1;
  target_ca_ = target >= 0 && !is_switch_[target] ? ~target : kNoTarget;
  column_ = lid >= 0 && lid < columns_.lids() ? column(lid) : nullptr;
  std::fill(state_.begin(), state_.end(), 0);
  delivered_sorted_ = false;
  undelivered_ = not_up_down_ = 0;
}

void PathEngine::follow(int k) {
  // Follow the column from `k` until a settled switch, an end, or a switch already on the way.
  int depth = 0;
  bool loop = false;
  for (;;) {
    if (state_[k] != 0) {
      loop = state_[k] == 1;
      break;
    }
    state_[k] = 1;
    stack_[depth++] = k;
    k = settle_or_next(k);
    if (k < 0) break;
  }
  // Every switch on the stack leads into a loop, or takes its outcome from the one after it.
  while (depth > 0) {
    const int x = stack_[--depth];
    if (state_[x] == 2) continue;
    if (loop) {
      steps_[x].outcome = Trace::Outcome::kLoop;
      settled(x);
    } else {
      derive(x);
      settled(x);
    }
  }
}

void PathEngine::walk(int lid) {
  start_walk(lid);
  int undelivered = 0, not_up_down = 0;  // of the switches settled here (follow counts its own)
  // Top down, nearly every switch leads to a settled one: that case takes
  // its step from it at once, with no stack, so switches do not wait on each other.
  for (int k : top_down_) {
    if (state_[k] == 2) continue;
    const uint8_t port = column_ ? column_[k] : kNoPath;
    const int link = leads_out(k, port) ? link_[first_port_[k] + port] : -1;
    if (link < 0 || link == target_index_ || state_[link] != 2) {
      follow(k);
      continue;
    }
    Step& step = steps_[k];
    step = Step{};
    step.port = port;
    step.next = switches_[link];
    next_[k] = link;
    derive(k);
    undelivered += step.outcome != Trace::Outcome::kDelivered;
    not_up_down += !step.up_down;
  }
  undelivered_ += undelivered;
  not_up_down_ += not_up_down;
  every_switch_walked_ = true;
}

void PathEngine::walk(int lid, const std::vector<int>& starts) {
  start_walk(lid);
  every_switch_walked_ = false;
  for (int start : starts) follow(switch_index_[start]);
}

const std::vector<int>& PathEngine::delivered_farthest_first() {
  if (!delivered_sorted_) sort_delivered();
  delivered_sorted_ = true;
  return delivered_;
}

void PathEngine::sort_delivered() {
  // Farthest first by a counting sort on hops.
  by_hops_.clear();
  for (const Step& step : steps_) {
    if (step.outcome != Trace::Outcome::kDelivered) continue;
    if (by_hops_.size() <= step.hops) by_hops_.resize(step.hops + 1, 0);
    ++by_hops_[step.hops];
  }
  int start = 0;
  for (auto it = by_hops_.rbegin(); it != by_hops_.rend(); ++it) start += std::exchange(*it, start);
  delivered_.resize(start);
  for (size_t k = 0; k < steps_.size(); ++k) {
    const Step& step = steps_[k];
    if (step.outcome == Trace::Outcome::kDelivered) delivered_[by_hops_[step.hops]++] = switches_[k];
  }
}

int entry_switch(const Fabric& fabric, int ca) {
  const Node& node = fabric.node(ca);
  if (node.num_ports < 1) return -1;
  const PortRef peer = node.ports[1].peer;
  return peer.valid() && fabric.node(peer.node).is_switch() ? peer.node : -1;
}

Senders group_senders(const AuditInput& input, const OffsetChoice& choice, bool compute_only) {
  const Fabric& fabric = input.fabric;
  Senders out;
  out.groups_at.resize(fabric.size());
  auto offset_of = [&](int ca) {
    switch (choice.mode) {
      case OffsetChoice::Mode::kFixed: return choice.offset;
      case OffsetChoice::Mode::kPathBits: return ca < static_cast<int>(choice.path_bits.size()) ? choice.path_bits[ca] : 0;
      case OffsetChoice::Mode::kAllOffsets: break;
    }
    return -1;
  };
  std::map<std::pair<int, int>, std::vector<int>> by_key;  // (entry, offset) -> members, ordered
  for (int ca = 0; ca < fabric.size(); ++ca) {
    if (fabric.node(ca).is_switch() || ca >= static_cast<int>(input.lids.base.size()) || input.lids.base[ca] == 0)
      continue;
    if (compute_only && is_aggregation_node(fabric.node(ca))) continue;
    out.cas.push_back(ca);
    const int entry = entry_switch(fabric, ca);
    if (entry < 0) {
      out.stray.push_back(ca);
      out.stray_offset.push_back(offset_of(ca));
    } else {
      by_key[{entry, offset_of(ca)}].push_back(ca);
    }
  }
  for (auto& [key, members] : by_key) {
    out.groups_at[key.first].push_back(static_cast<int>(out.groups.size()));
    out.groups.push_back({key.first, key.second, std::move(members)});
  }
  if (choice.mode == OffsetChoice::Mode::kAllOffsets) {
    for (int o = 0; o < input.lids.lids_per_ca(); ++o) out.offsets.push_back(o);
  } else {
    std::vector<int> all;
    for (const SenderGroup& group : out.groups) all.push_back(group.offset);
    all.insert(all.end(), out.stray_offset.begin(), out.stray_offset.end());
    std::ranges::sort(all);
    all.erase(std::unique(all.begin(), all.end()), all.end());
    out.offsets = std::move(all);
  }
  out.groups_on.resize(out.offsets.size());
  for (size_t k = 0; k < out.offsets.size(); ++k)
    for (size_t g = 0; g < out.groups.size(); ++g)
      if (out.groups[g].sends_on(out.offsets[k])) out.groups_on[k].push_back(static_cast<int>(g));
  out.entries_on.resize(out.offsets.size());
  for (size_t k = 0; k < out.offsets.size(); ++k) {
    for (int g : out.groups_on[k]) out.entries_on[k].push_back(out.groups[g].entry);
    std::ranges::sort(out.entries_on[k]);
    out.entries_on[k].erase(std::unique(out.entries_on[k].begin(), out.entries_on[k].end()), out.entries_on[k].end());
  }
  return out;
}

ChannelIndex::ChannelIndex(const Fabric& fabric) : first_(fabric.size(), -1) {
  for (int i = 0; i < fabric.size(); ++i) {
    if (!fabric.node(i).is_switch()) continue;
    first_[i] = static_cast<int>(ports_.size());
    for (int p = 0; p <= fabric.node(i).num_ports; ++p) ports_.push_back({i, p});
  }
}

}  // namespace ftclos
