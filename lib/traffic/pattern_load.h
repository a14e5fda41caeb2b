// What a traffic matrix does to a routed fabric: every SD pair is traced
// through the LFTs and its traffic added to each channel (directed link, CA
// links included) on its path. Yuan et al., "Oblivious routing in fat-tree
// based system area networks", §II-A and §III:
//   MLOAD = the largest channel load;
//   OPTU  = the smallest MLOAD any routing (multipath included) can reach;
//   baseload = max over CAs of max(total sent, total received) <= OPTU, and on
//           FT(m,n) OPTU = baseload (Corollary 1: OMRMN reaches it);
//   ratio = MLOAD / OPTU (PERF).
// Where Corollary 1 does not apply, OPTU is replaced by the lower bound
// max(baseload, sub-tree cut), the cut bound being the traffic that must leave
// (or enter) a sub-tree divided by its up links; the ratio is then an upper
// bound on PERF.
//
// Flow bandwidth follows ORCS (Hoefler et al.'s Oblivious Routing Congestion
// Simulator): a flow gets amount / (largest load on its path) of bandwidth,
// per offset when it is split, so 1 means it runs at full rate; the mean over
// flows of the `bisection` pattern (random halves, random pairs across, a
// unit each way) averaged over random bisections is the effective bisection
// bandwidth.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit.h"
#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/routing.h"
#include "traffic/load_plan.h"
#include "traffic/patterns.h"

namespace ftclos {

/// How OPTU was obtained.
enum class OptuBasis : uint8_t {
  kBaseload,      // OPTU = baseload, exact on a full fat-tree (Corollary 1)
  kLowerBound,    // OPTU >= max(baseload, sub-tree cut): ratios are upper bounds
};

/// The CAs in fabric order: pattern host number i is hosts[i].
std::vector<int> pattern_hosts(const Fabric& fabric);

/// Whether OPTU = baseload for every matrix: on a full fat-tree, i.e. one
/// with PGFT labels, no deviations, and at every switch level as much
/// capacity up as down (w_l p_l >= m_{l-1} p_{l-1}), where spreading each
/// flow evenly over all parents loads no channel above baseload (Yuan et
/// al.'s Corollary 1 on FT(m,n); clos2 with m >= n and k-ary n-trees alike).
/// Then the worst-case contention of the auditor is the oblivious ratio too.
bool optu_is_baseload(const Detection& detection);

/// kBaseload where optu_is_baseload, else kLowerBound.
OptuBasis optu_basis(const Detection& detection);

/// One traffic matrix on one set of tables.
struct PatternLoad {
  double mload = 0;
  double optu = 0;            // per the basis
  double ratio = 0;           // mload / optu; 0 for an empty matrix
  double flow_bandwidth = 0;  // mean over flows (ORCS), see above
  long undelivered = 0;       // SD pairs (per offset) with no route, a loop or a dead port;
                              // their traffic counts on their CA link only
  Channel worst;              // a channel carrying mload
};

/// Loads of `tm` (host numbers index `hosts`) on the plan's tables; the plan
/// keeps the trees it compiles for the next matrix. `levels` gives the
/// sub-trees of the cut bound and is used only with kLowerBound.
PatternLoad pattern_load(LoadPlan& plan, const Levels& levels, OptuBasis basis, const TrafficMatrix& tm,
                         const std::vector<int>& hosts);

/// Per-channel loads, indexed by channel_index(); the building block above.
struct ChannelLoads {
  std::vector<int> first_channel;  // per node: index of its port 0
  std::vector<double> load;
  long undelivered = 0;

  int channel_index(PortRef port) const { return first_channel[port.node] + port.port; }
};
ChannelLoads channel_loads(LoadPlan& plan, const TrafficMatrix& tm, const std::vector<int>& hosts);

/// Mean, extremes and (sample) standard deviation of a series.
struct Spread {
  double mean = 0, min = 0, max = 0, stddev = 0;
  int count = 0;
};
Spread spread_of(const std::vector<double>& values);

/// A pattern over several instances, as `ftclos patterns` and `ftclos audit
/// --pattern` report it.
struct PatternStats {
  std::string pattern;
  Spread ratio, mload, optu, flow_bandwidth;
  OptuBasis basis = OptuBasis::kBaseload;
  long undelivered = 0;  // summed over instances
};

struct PatternRun {
  int instances = 0;  // 0: 32 for random patterns (§VI), 1 otherwise
  uint64_t seed = 1;  // instance i uses a seed derived from (seed, i)
};

/// The table `ftclos patterns` and `ftclos audit --pattern` print: its
/// header, and one row per pattern and set of tables (a scheme or a file).
std::string pattern_table_header();
std::string pattern_table_row(const std::string& tables, const PatternStats& stats);

/// The entry point for commands: instances of `pattern` over pattern_hosts()
/// on the plan's tables (one plan for every pattern on them). Fails when the
/// pattern does not fit the host count.
Result<PatternStats> evaluate_pattern(LoadPlan& plan, const Levels& levels, OptuBasis basis,
                                      const PatternSpec& pattern, const PatternRun& run);

/// A fabric routed by a named scheme, ready for pattern_load.
struct SchemeTables {
  LidMap lids;
  Routing routing;
  OffsetChoice offsets;  // the scheme's contract: path bits, all offsets for multipath
  std::vector<std::string> notes;
};

/// Routes with `scheme` at LMC `lmc`, or when `lmc` is negative at the LMC the
/// scheme asks for, lowered until the LIDs fit `space` (noted). On failure
/// `bad_input` (when given) tells an unknown scheme or LIDs that do not fit
/// (the caller's mistake) from a fabric the scheme cannot route. `users`:
/// RoutingInput::path_bits_users (the papers' tables: every host on its bits).
Result<SchemeTables> route_scheme(const Fabric& fabric, const Detection& detection, std::string_view scheme,
                                  int lmc, LidSpace space = LidSpace::kUnicast, bool* bad_input = nullptr,
                                  PathBitsUsers users = PathBitsUsers::kSome);

}  // namespace ftclos
