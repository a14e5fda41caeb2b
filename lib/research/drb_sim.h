// Flow-level simulator of the permutation-flow experiment of "Randomized
// Load-balanced Routing for Fat-tree Networks" (DRB with Threshold-based
// Two-Choice, §3-4.1) on FT(m, n): every host sends k flows and receives k
// (k random derangements), the flows are routed one after another in random
// order, and each switch picks the uplink of a flow when it arrives:
//   D-mod-k: the D-mod-k uplink (our dmodk scheme's LFT), always;
//   VLB:     a uniformly random uplink (a random minimal path);
//   Micro:   the less loaded of two distinct random uplinks;
//   DRB:     a random uplink r instead of the D-mod-k uplink d iff
//            load(d) - load(r) > T (TTC; T = 0 is plain two-choice).
// Downward the path is the unique one to the destination. A link's load is
// the number of flows on it (each direction a link of its own, CA links
// included); the result is the largest load, averaged over runs. Optimal is
// k: a fat-tree routes k-permutation flows with load k.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "route/routing.h"
#include "traffic/pattern_load.h"

namespace ftclos {

enum class DrbPolicy : uint8_t { kDmodk, kVlb, kMicro, kDrb };
std::string_view policy_name(DrbPolicy policy);

/// FT(ports, levels) with its D-mod-k tables and, per switch, the up ports.
struct DrbFabric {
  Fabric fabric;
  LidMap lids;
  Lfts dmodk;
  std::vector<int> hosts;                  // CA node indices
  std::vector<int> first_channel;          // per node: channel of its port 0
  std::vector<int> peer;                   // per channel: far-end node, -1 when uncabled
  std::vector<std::vector<uint8_t>> up;    // per node: up ports (switches)
  std::vector<bool> down;                  // per channel: leads toward the CAs
};

Result<DrbFabric> make_drb_fabric(int ports, int levels);

struct DrbRun {
  DrbPolicy policy = DrbPolicy::kDrb;
  int k = 1;          // flows per host, each way
  int runs = 200;     // the paper's count
  int threshold = 0;  // T, for kDrb
  uint64_t seed = 1;
};

/// The largest link load of each run, summarized.
Spread simulate_max_load(const DrbFabric& fabric, const DrbRun& run);

/// Our default T. The paper's formula (4) is lost in our copy of the text,
/// which only says it depends on N; we take the two-choice excess
/// floor(ln ln N / ln 2) of (6).
int default_threshold(int hosts);

/// The heuristic (5) as the text describes it: the two-choice maximum load
/// k + ln ln N / ln 2 of Berenbrink et al. (6) plus the threshold T.
double drb_estimate(int hosts, int k, int threshold);

}  // namespace ftclos
