#include "engine/sweep_memory.h"

#include <utility>

namespace ftclos {

long cabled_cas(const Fabric& fabric) {
  long n = 0;
  for (const Node& node : fabric.nodes())
    n += !node.is_switch() && node.num_ports >= 1 && node.ports[1].peer.valid();
  return n;
}

bool SweepMemory::fits(const Fabric& fabric, const LidMap& lids) const {
  if (!counts || guids.size() != static_cast<size_t>(fabric.size()) || owners != lids.owner) return false;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).guid != guids[x]) return false;
  return counts->lost_cables_only(fabric);
}

void SweepMemory::keep(const Fabric& fabric, const LidMap& lids, const Correctness& sound, DependencyCounts kept) {
  guids.clear();
  for (const Node& node : fabric.nodes()) guids.push_back(node.guid);
  owners = lids.owner;
  cabled_cas = ftclos::cabled_cas(fabric);
  check = sound;
  counts = std::move(kept);
  uncounted = false;
  dest_sl.clear();
}

void SweepMemory::keep_uncounted(const Fabric& fabric, const LidMap& lids, const Correctness& sound,
                                 std::vector<uint8_t> sls) {
  keep(fabric, lids, sound, DependencyCounts(fabric));
  uncounted = true;
  dest_sl = std::move(sls);
}

void SweepMemory::count(const LidMap& lids, const Lfts& tables, int workers) {
  counts->count_tables(lids, tables, dest_sl, workers);
  uncounted = false;
  dest_sl.clear();
}

}  // namespace ftclos
