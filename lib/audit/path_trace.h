// Follows the LFTs hop by hop from a CA to a destination LID: what a packet
// does. The auditor and the scheme tests build on it.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"
#include "route/routing.h"

namespace ftclos {

struct Trace {
  enum class Outcome : uint8_t { kDelivered, kNoRoute, kLoop, kDeadPort };
  Outcome outcome = Outcome::kNoRoute;
  std::vector<PortRef> hops;  // each switch egress port in order (the CA's own port first)
};

/// Trace from CA `source` to `dlid`. Stops at the owner of dlid (kDelivered),
/// at a kNoPath entry (kNoRoute), at an uncabled port (kDeadPort), or after
/// revisiting a switch (kLoop).
Trace trace(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int source, int dlid);

/// Whether the switch-level path never turns up again after going down.
bool is_up_down(const Fabric& fabric, const Levels& levels, const Trace& path);

}  // namespace ftclos
