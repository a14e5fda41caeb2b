// The offline auditor: given a fabric, its LIDs and its LFTs (from ftclos,
// from OpenSM's dumps, from a production cluster), what every packet does and
// how much contention the tables can cause. Papers: Yuan et al., "Oblivious
// routing in fat-tree based system area networks" §II-A, §IV-V; Towles and
// Dally, "Worst-case traffic for oblivious routing functions".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"
#include "paths/mcast_tree.h"
#include "route/routing.h"

namespace ftclos {

/// Which LID of a destination each source sends to (the multi-LID contract).
struct OffsetChoice {
  enum class Mode : uint8_t {
    kFixed,       // every source uses offset `offset` (default 0)
    kPathBits,    // source s uses path_bits[s]
    kAllOffsets,  // every source splits its traffic evenly over all 2^lmc offsets
  };
  Mode mode = Mode::kFixed;
  int offset = 0;
  std::vector<int> path_bits;  // per node, for kPathBits
};

/// "path bits", "all offsets, split evenly" or "fixed offset K".
std::string describe(const OffsetChoice& choice);

/// One source's SL to one destination LID where it differs from the LID's
/// default (AuditInput::dest_sl): PathRecords may give a pair its own SL.
struct SlException {
  int lid = 0;      // the destination LID
  int source = -1;  // the source CA's node
  uint8_t sl = 0;

  auto operator<=>(const SlException&) const = default;
};

/// SL-to-VL tables as switches hold them: per (in port, out port) of each
/// switch. Pairs not given map through AuditInput::sl2vl (VL = SL when that
/// is empty too).
class Sl2VlTables {
 public:
  using Row = std::array<uint8_t, 16>;  // VL of each SL
  void set(int node, int in, int out, const Row& row);
  /// The row of (node, in, out); nullptr when not given.
  const Row* find(int node, int in, int out) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::vector<std::vector<std::optional<Row>>>> rows_;  // [node][out][in]
};

struct AuditInput {
  const Fabric& fabric;
  const Levels& levels;
  const LidMap& lids;
  const Lfts& lfts;
  OffsetChoice offsets;
  std::vector<uint8_t> dest_sl;  // per LID; empty = SL 0 for all
  std::vector<uint8_t> sl2vl;    // 16 entries; empty = VL = SL
  std::vector<SlException> sl_exceptions = {};  // sorted (LID, then source); override dest_sl
  const Sl2VlTables* sl2vl_ports = nullptr;     // per switch port pair; overrides sl2vl where given
  // Multicast groups whose channel dependencies (each on its group's SL)
  // join the unicast ones in the credit-loop count; nullptr = none.
  const std::vector<McastForwarding>* mcast = nullptr;
  // Whether check_correctness counts non-minimal routes (a BFS per leaf; the
  // plugin, which only needs delivery and credit loops, turns it off).
  bool count_non_minimal = true;
  // Whether check_correctness counts switch_credit_loops (the switches' own
  // routes in the graph; the sweep's check, which does not report it, turns it off).
  bool count_switch_credit_loops = true;
};

/// A directed switch-to-switch channel: the egress port of the sending switch.
using Channel = PortRef;

struct Correctness {
  long pairs = 0;              // (source CA, destination LID) routes examined: CA pairs x 2^lmc
  long disconnected = 0;       // routes of CA pairs no cable path joins (a CA cut off, a split fabric): not
                               // routing failures, so neither examined nor in `pairs`
  long unreachable = 0;        // no route (black hole, dead port, wrong CA)
  long loops = 0;              // forwarding loops
  long updown_violations = 0;  // a down hop followed by an up hop (folded Clos only)
  long non_minimal = 0;        // longer than the shortest path in the cabling
  // Switches' own traffic (PMA queries and their answers, traps): every
  // switch to every LID of another node (every LID of a CA's range), every
  // CA to every switch LID, where cables join them. Counted apart: not in
  // `pairs`, `unreachable`, `loops` nor `credit_loops`.
  long switch_pairs = 0;
  long switch_unreachable = 0;  // of them: not delivered (no route, dead port or loop)
  int switch_credit_loops = 0;  // credit loops once their routes join the CAs' (>= credit_loops)
  int credit_loops = 0;        // cycles in the channel dependency graph, counted per VL
  uint16_t sls_used = 0;       // bit s: some delivered route has SL s
  uint16_t vls_used = 0;       // bit v: a channel may carry VL v for them (every port pair's SL2VL)
  uint16_t switch_sls_used = 0;  // the same for switches' own routes (the SL of the LID they go to)
  uint16_t switch_vls_used = 0;
  std::vector<std::string> examples;  // a few concrete cases per kind, for people
};

struct LinkLoad {
  Channel channel;
  int level = 0;        // level of the sending switch
  long pairs = 0;       // SD pairs routed over it (weighted pairs count once)
  int sources = 0;      // distinct sources
  int destinations = 0; // distinct destinations
  double matching = 0;  // max (weighted) bipartite matching of its SD pairs
};

struct Contention {
  double worst_case = 0;        // max over channels of `matching`
  Channel worst_link;           // where it is reached
  std::vector<std::pair<int, int>> witness;  // (source CA, destination CA): a permutation reaching it
  std::vector<LinkLoad> links;  // every switch-to-switch channel that carries traffic
  bool exact = true;            // false when a weighted figure is a bound (see notes)
  std::vector<std::string> notes;
};

/// Both split destinations over threads (core/workers.h): every thread
/// count gives the same results. check_correctness examines every LID of
/// every destination's range from every source (`pairs` counts CA pairs x
/// 2^lmc); `offsets` only chooses the LIDs worst_case_contention loads.
Correctness check_correctness(const AuditInput& input);
Contention worst_case_contention(const AuditInput& input);

/// worst_case_contention's figure alone (Contention::worst_case): no
/// witness permutation, which costs a second pass over every destination.
double worst_case_value(const AuditInput& input);

}  // namespace ftclos
