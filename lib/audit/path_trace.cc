#include "audit/path_trace.h"

namespace ftclos {

Trace trace(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int source, int dlid) {
  Trace out;
  const int target = lids.owner[dlid];
  PortRef egress{source, 1};
  std::vector<bool> seen(fabric.size(), false);
  for (;;) {
    out.hops.push_back(egress);
    const PortRef next = fabric.peer(egress);
    if (!next.valid()) {
      out.outcome = Trace::Outcome::kDeadPort;
      return out;
    }
    if (next.node == target) {
      out.outcome = Trace::Outcome::kDelivered;
      return out;
    }
    if (!fabric.node(next.node).is_switch()) {
      out.outcome = Trace::Outcome::kNoRoute;  // delivered to the wrong CA
      return out;
    }
    if (seen[next.node]) {
      out.outcome = Trace::Outcome::kLoop;
      return out;
    }
    seen[next.node] = true;
    const uint8_t port = lfts.at(next.node, dlid);
    if (port == kNoPath || port == 0 || port > fabric.node(next.node).num_ports) {
      out.outcome = Trace::Outcome::kNoRoute;
      return out;
    }
    egress = {next.node, port};
  }
}

bool is_up_down(const Fabric& fabric, const Levels& levels, const Trace& path) {
  bool went_down = false;
  for (const PortRef hop : path.hops) {
    const PortRef peer = fabric.peer(hop);
    if (!peer.valid() || !fabric.node(hop.node).is_switch()) continue;
    const bool up = levels.of[peer.node] > levels.of[hop.node];
    if (up && went_down) return false;
    went_down |= !up;
  }
  return true;
}

}  // namespace ftclos
