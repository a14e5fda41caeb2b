// A local search after a destination-based router (updown; dmodk where
// attached hosts or damage leave the labels) on small fabrics: it lowers
// the worst-case contention of offset 0 the audit measures (at LMC > 0 the
// base LIDs: what every source of these destination-based schemes, path
// bits 0, and every host that takes the SA's first PathRecord sends to;
// the other offsets stay as routed) (per channel the
// maximum bipartite matching of the (source, destination) pairs routed over
// it, core/bipartite_matching.h; Yuan et al. §IV) by moving LFT entries that
// feed the channels at the worst case to other ports.
//
// A move changes one entry (switch X, destination CA LID) to another of X's
// best ports toward the destination (paths/updown_reach.h: up ports whose
// parent still reaches it on a shortest up/down path, the other down ports
// of a random Clos, the other shortest detours toward an attached host), so
// compute traffic stays up, then down on SL 0: loop-free and deadlock-free.
// A move of a layered destination (attached hosts reached by detours,
// paths/detour_layers.h) is kept only while its SL's channel dependency
// graph stays acyclic. A move is kept when (worst case, channels at it,
// pairs those channels carry, sum of squares over channels) falls
// lexicographically; only the channels whose pairs change are matched
// again. Iterated: from the best tables found, a few random moves at the
// worst channels, then the climb again, until 12 rounds in a row find
// nothing better or the work budget is spent. Deterministic: candidates
// are ordered by node names, then shuffled by the seed, so the same fabric
// in another node order gets the same tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "route/routing.h"
#include "paths/updown_reach.h"

namespace ftclos {

struct PolishLimits {
  // Above this many CAs the tables are left as routed: the search keeps a
  // set of entry switches per (destination, switch), and FT(36,3) or a
  // 10,080-host RFC must not route slower.
  int max_cas = 1024;
  // Work: per channel matching, the destinations scanned plus the pairs of
  // (entry switch, destination) built, and the hops walked to find
  // candidates; the first pass included. RoutingInput::polish_work lowers it.
  long max_work = kFullPolishWork;
  uint64_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // set: stop as if the budget were spent
};

struct PolishOutcome {
  bool ran = false;     // false: turned off or past max_cas
  long before = 0;      // worst-case contention of the tables handed in (offset 0)
  long after = 0;       // and of the tables handed back
  int moves = 0;        // entries changed
  long work = 0;        // spent, as max_work counts it
  bool budget_spent = false;  // stopped by max_work (or RoutingInput::polish_work, or its cancel)
};

/// What a move may do: the up/down rule above, or a scheme's own (the
/// layered scheme's shortest paths, whose every SL is a layer).
class PolishRules {
 public:
  virtual ~PolishRules() = default;
  /// The switches CA routes cross, in a fixed order.
  virtual const std::vector<int>& switches() const = 0;
  /// Prepares ports() for switch `x`; asked switch by switch.
  virtual void at_switch(int x) = 0;
  /// Every port the prepared switch's entry toward `exit` may take,
  /// ascending; each must bring packets closer to it (no loop).
  virtual std::vector<uint8_t> ports(const Exit& exit) const = 0;
  /// Whether the entries toward `exit`, on `sl`, may move at all.
  virtual bool movable(const Exit& exit, uint8_t sl) const = 0;
  /// After the entries toward `lid` changed: the SL it may take (its own,
  /// dest_sl[lid], where that layer stays free of credit loops, else
  /// another), or -1 when none; `work` grows by the dependencies checked.
  /// dest_sl is empty when every LID is on SL 0.
  virtual int layer(const Lfts& lfts, const std::vector<uint8_t>& dest_sl, int lid, long& work) const = 0;
};

/// Polishes routing.lfts in place (see above). Never raises the worst case,
/// never strands a pair the tables delivered, leaves dest_sl as it is. Does
/// nothing when input.polish is off (route --no-polish, plugin polish=off).
/// Sets routing.polish_cut_short when the budget ran out first.
PolishOutcome polish_contention(const RoutingInput& input, const UpDownReach& reach, Routing& routing,
                                const PolishLimits& limits = {});

/// The same under `rules`: a moved destination may change its SL
/// (routing.dest_sl) as rules.layer says.
PolishOutcome polish_contention(const RoutingInput& input, PolishRules& rules, Routing& routing,
                                const PolishLimits& limits = {});

/// The note the schemes add to Routing::notes ("" when the polish did not run).
std::string polish_note(const PolishOutcome& outcome);

}  // namespace ftclos
