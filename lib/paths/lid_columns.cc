#include "paths/lid_columns.h"

#include <algorithm>

#include "core/workers.h"

namespace ftclos {
namespace {

// Switches per tile: a tile's table lines for a run of LIDs stay in the
// first-level cache, and each column's part is one 64-byte line.
constexpr int kTile = 64;

// Calls visit(first, end) for every tile of switch ranks: blocks of tiles
// in parallel, each switch's table its own.
template <class Visit>
void for_each_tile(int switches, Visit visit) {
  const long tiles = (switches + kTile - 1) / kTile;
  for_each_block(tiles, worker_count(tiles / 4 + 1), [&](int, long begin, long end) {
    for (long tile = begin; tile < end; ++tile)
      visit(static_cast<int>(tile) * kTile, std::min(switches, static_cast<int>(tile + 1) * kTile));
  });
}

}  // namespace

LidColumns::LidColumns(const Fabric& fabric, const Lfts& lfts, std::vector<int> lids, int max_lid)
    : lids_(std::move(lids)), slot_(max_lid + 1, -1), rank_(fabric.size(), -1) {
  for (size_t i = 0; i < lids_.size(); ++i) slot_[lids_[i]] = static_cast<int>(i);
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) {
      rank_[x] = static_cast<int>(switches_.size());
      switches_.push_back(x);
    }
  const size_t width = switches_.size();
  data_.assign(lids_.size() * width, kNoPath);
  for_each_tile(static_cast<int>(width), [&](int first, int end) {
    for (size_t i = 0; i < lids_.size(); ++i) {
      uint8_t* out = &data_[i * width];
      for (int r = first; r < end; ++r) {
        const int x = switches_[r];
        out[r] = x < static_cast<int>(lfts.port.size()) ? lfts.at_or_none(x, lids_[i]) : kNoPath;
      }
    }
  });
}

void LidColumns::scatter(Lfts& lfts) const {
  const size_t width = switches_.size();
  for_each_tile(static_cast<int>(width), [&](int first, int end) {
    for (size_t i = 0; i < lids_.size(); ++i) {
      const uint8_t* in = &data_[i * width];
      for (int r = first; r < end; ++r) {
        const int x = switches_[r];
        if (x < static_cast<int>(lfts.port.size()) && lids_[i] < static_cast<int>(lfts.port[x].size()))
          lfts.port[x][lids_[i]] = in[r];
      }
    }
  });
}

}  // namespace ftclos
