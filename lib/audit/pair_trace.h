// One pair's path through forwarding tables read back from a subnet, hop by
// hop: what `ftclos trace` prints, the offline counterpart of ibtracert.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit.h"
#include "audit/path_trace.h"
#include "core/fabric.h"
#include "core/status.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

struct Endpoint {
  int node = -1;
  int lid = 0;  // the LID the key named; 0 when it named the node
};

/// The node `key` names: a LID (decimal), a node or port GUID ("0x" hex),
/// else a node name or description. A LID must be one of the tables'; a
/// name several nodes share is an error listing them.
Result<Endpoint> find_endpoint(const Fabric& fabric, const LidMap& lids, std::string_view key);

struct TraceHop {
  int node = -1;
  int in_port = 0;   // 0 at the source CA
  int out_port = 0;  // 0 where the packet stops
  LinkRate rate;     // of the link leaving by out_port
  int vl = -1;       // on that link; -1 when not asked for
};

struct PairTrace {
  Trace::Outcome outcome = Trace::Outcome::kNoRoute;
  std::vector<TraceHop> hops;  // the source CA first, then every switch reached
  int stop_node = -1;          // the node the packet ends at (delivered to, or dropped/looping at)
};

/// Follows `dlid` from CA `source` (path_trace.h's trace). With `sl`, each
/// link's VL: a switch's by `sl2vl` (its row for the in and out port), else
/// the SL itself, as OpenSM's default SL2VL of one VL per SL.
PairTrace trace_pair(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int source, int dlid,
                     std::optional<int> sl = std::nullopt, const Sl2VlTables* sl2vl = nullptr);

}  // namespace ftclos
