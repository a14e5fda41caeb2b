#include "audit/dependency_counts.h"

#include <algorithm>
#include <utility>

#include "core/workers.h"
#include "detect/star_roots.h"

namespace ftclos {
namespace {

constexpr int kVls = 16;
// LIDs counted together. A block holds each switch's entries for them side
// by side (one copy of a run of its table), so a switch's dependencies read
// its own run and its neighbours' in order while its channel rows stay in
// cache; per block every row is visited once. On FT(48,3), 2 threads: 64
// LIDs per block (each LID's entries gathered across the tables) 500-560
// ms, 256-1,024 LIDs 220-260 ms, 4,096 410-560 ms.
constexpr int kBlock = 256;

int widest_switch(const Fabric& fabric) {
  int ports = 0;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) ports = std::max(ports, fabric.node(x).num_ports);
  return ports + 1;
}

}  // namespace

DependencyCounts::DependencyCounts(const Fabric& fabric)
    : channels_(fabric, StarRoots{}), width_(widest_switch(fabric)), counts_(kVls), listed_(fabric.size(), 0) {}

DependencyCounts::DependencyCounts(const Fabric& fabric, const LidMap& lids, const Lfts& lfts,
                                   const std::vector<uint8_t>& dest_sl)
    : DependencyCounts(fabric) {
  count_tables(lids, lfts, dest_sl, worker_count((lids.max_lid + kBlock - 1) / kBlock / 16 + 1));
}

void DependencyCounts::count_tables(const LidMap& lids, const Lfts& lfts, const std::vector<uint8_t>& dest_sl,
                                    int workers) {
  const size_t slots = static_cast<size_t>(channels_.count()) * width_;
  // Blocks of LIDs on every worker, each into counts of its own, summed.
  const long blocks = (lids.max_lid + kBlock - 1) / kBlock;
  std::vector<std::vector<std::vector<uint16_t>>> parts(workers, std::vector<std::vector<uint16_t>>(kVls));
  // A block's entries by switch rank (the switches alone: the block stays
  // in the second-level cache while its dependencies are read from it).
  const std::vector<int>& switches = channels_.switches();
  const size_t ranks = switches.size();
  std::vector<int> rank(switches.empty() ? 0 : switches.back() + 1, -1);  // switches ascend
  for (size_t r = 0; r < ranks; ++r) rank[switches[r]] = static_cast<int>(r);
  // Flat lookups for the pass (88 million entries on FT(48,3)): per rank its
  // first channel number and port count, per channel the rank it leads to.
  std::vector<int> base(ranks), ports_of(ranks), peer_rank(channels_.count(), -1);
  for (size_t r = 0; r < ranks; ++r) {
    base[r] = channels_.of(switches[r], 1) >= 0 ? channels_.of(switches[r], 1) - 1 : -1;
    ports_of[r] = channels_.ports(switches[r]);
    for (int port = 1; port <= ports_of[r]; ++port)
      if (const int c = channels_.of(switches[r], port); c >= 0) {
        base[r] = c - port;
        peer_rank[c] = rank[channels_.peer(c)];
      }
  }
  for_each_block(blocks, workers, [&](int w, long first_block, long end_block) {
    std::vector<std::vector<uint16_t>>& mine = parts[w];
    std::vector<uint8_t> block(static_cast<size_t>(kBlock) * ranks, kNoPath);  // [rank][LID in block]
    for (long b = first_block; b < end_block; ++b) {
      const int first_lid = 1 + static_cast<int>(b) * kBlock;
      const int last_lid = std::min(lids.max_lid, first_lid + kBlock - 1);
      for (size_t r = 0; r < ranks; ++r) {
        const std::vector<uint8_t>& table = lfts.port[switches[r]];
        uint8_t* run = &block[r * kBlock];
        const int held = std::clamp(static_cast<int>(table.size()) - first_lid, 0, last_lid - first_lid + 1);
        if (held > 0) std::copy_n(table.begin() + first_lid, held, run);
        std::fill(run + held, run + kBlock, kNoPath);
      }
      int vl_of[kBlock];  // -1: no owner
      for (int lid = first_lid; lid <= last_lid; ++lid) {
        vl_of[lid - first_lid] =
            lids.owner[lid] < 0 ? -1 : (lid < static_cast<int>(dest_sl.size()) ? dest_sl[lid] : 0) & (kVls - 1);
        if (vl_of[lid - first_lid] >= 0 && mine[vl_of[lid - first_lid]].empty()) mine[vl_of[lid - first_lid]].assign(slots, 0);
      }
      // Switch by switch, so that one channel row takes the block's dependencies.
      for (size_t r = 0; r < ranks; ++r) {
        if (base[r] < 0) continue;  // no cable to a switch
        const uint8_t* run = &block[r * kBlock];
        for (int i = 0; i <= last_lid - first_lid; ++i) {
          const int vl = vl_of[i];
          const uint8_t p = run[i];
          if (vl < 0 || p == 0 || p > ports_of[r]) continue;
          const int first = base[r] + p, y = peer_rank[first];
          if (y < 0) continue;
          const uint8_t q = block[static_cast<size_t>(y) * kBlock + i];
          if (q == 0 || q > ports_of[y] || base[y] < 0 || peer_rank[base[y] + q] < 0) continue;
          ++mine[vl][static_cast<size_t>(first) * width_ + q];
        }
      }
    }
  });
  for (int vl = 0; vl < kVls; ++vl)
    for (std::vector<std::vector<uint16_t>>& part : parts) {
      if (part[vl].empty()) continue;
      if (counts_[vl].empty()) {
        counts_[vl] = std::move(part[vl]);
        continue;
      }
      for (size_t i = 0; i < slots; ++i) counts_[vl][i] += part[vl][i];
    }
}

bool DependencyCounts::lost_cables_only(const Fabric& fabric) const {
  const Channels now(fabric, StarRoots{});
  if (now.count() != channels_.count()) return false;
  for (int c = 0; c < now.count(); ++c)
    if (now.peer(c) >= 0 && now.peer(c) != channels_.peer(c)) return false;
  return true;
}

void DependencyCounts::lose_cables(const Fabric& fabric) {
  Channels now(fabric, StarRoots{});
  for (std::vector<uint16_t>& counts : counts_) {
    if (counts.empty()) continue;
    for (int c = 0; c < channels_.count(); ++c) {
      const size_t row = static_cast<size_t>(c) * width_;
      if (channels_.peer(c) < 0) continue;
      if (now.peer(c) < 0) {
        std::fill_n(counts.begin() + row, width_, 0);
        continue;
      }
      for (int q = 1; q < width_; ++q)
        if (counts[row + q] != 0 && now.of(now.peer(c), q) < 0) counts[row + q] = 0;
    }
  }
  channels_ = std::move(now);
  into_.clear();
}

std::vector<int> DependencyCounts::switches_losing_cables(const Fabric& fabric) const {
  const Channels now(fabric, StarRoots{});
  std::vector<int> out;
  for (int c = 0; c < channels_.count(); ++c)
    if (channels_.peer(c) >= 0 && now.peer(c) < 0) out.push_back(channels_.from(c));
  std::ranges::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void DependencyCounts::add(int vl, int from, int to, int sign) {
  std::vector<uint16_t>& counts = counts_[vl];
  if (counts.empty()) counts.assign(static_cast<size_t>(channels_.count()) * width_, 0);
  counts[slot(from, to)] = static_cast<uint16_t>(counts[slot(from, to)] + sign);
}

void DependencyCounts::list_into() {
  into_.assign(listed_.size(), {});
  for (int c = 0; c < channels_.count(); ++c)
    if (channels_.peer(c) >= 0) into_[channels_.peer(c)].push_back(c);
}

uint16_t DependencyCounts::vls() const {
  uint16_t out = 0;
  for (int vl = 0; vl < kVls; ++vl)
    if (!counts_[vl].empty() && std::ranges::any_of(counts_[vl], [](uint16_t n) { return n != 0; }))
      out |= uint16_t{1} << vl;
  return out;
}

bool DependencyCounts::operator==(const DependencyCounts& other) const {
  const auto zero = [](const std::vector<uint16_t>& counts) {
    return std::ranges::all_of(counts, [](uint16_t n) { return n == 0; });
  };
  for (int vl = 0; vl < kVls; ++vl) {
    const std::vector<uint16_t>& mine = counts_[vl];
    const std::vector<uint16_t>& theirs = other.counts_[vl];
    if (mine.empty() || theirs.empty() ? !(zero(mine) && zero(theirs)) : mine != theirs) return false;
  }
  return width_ == other.width_;
}

std::vector<int> DependencyCounts::cycle(int vl) const {
  if (counts_[vl].empty()) return {};
  std::vector<uint8_t> color(channels_.count(), 0);  // 0 unseen, 1 on the path, 2 done
  std::vector<int> parent(channels_.count(), -1);
  std::vector<std::pair<int, int>> stack;  // channel, next port of its peer to try
  for (int start = 0; start < channels_.count(); ++start) {
    if (color[start] != 0 || channels_.peer(start) < 0) continue;
    stack.assign(1, {start, 1});
    color[start] = 1;
    while (!stack.empty()) {
      auto& [c, q] = stack.back();
      const size_t row = static_cast<size_t>(c) * width_;
      int onward = -1;
      for (; q < width_ && onward < 0; ++q) {
        const int to = counts_[vl][row + q] != 0 ? channels_.of(channels_.peer(c), q) : -1;
        if (to >= 0 && color[to] != 2) onward = to;
      }
      if (onward < 0) {
        color[c] = 2;
        stack.pop_back();
        continue;
      }
      if (color[onward] == 1) {  // back on the path: the cycle is onward .. c
        std::vector<int> found;
        for (int at = c; at != onward; at = parent[at]) found.push_back(at);
        found.push_back(onward);
        std::ranges::reverse(found);
        return found;
      }
      parent[onward] = c;
      color[onward] = 1;
      stack.emplace_back(onward, 1);
    }
  }
  return {};
}

}  // namespace ftclos
