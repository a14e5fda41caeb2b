// A discovered subnet (engine/subnet.h) as a Fabric with the subnet manager's
// own LIDs, so that the plugin routes exactly what OpenSM addresses. Switches
// keep their ports. Every cabled CA port becomes a one-port CA node of its
// own: a CA with one cabled port keeps the node's GUID and name, a CA with
// two (dual rail into one fabric) gives two end nodes, "H-<guid>-p<port>",
// each with its port's LIDs. CA ports without a cable get no node.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "route/lid_map.h"
#include "engine/subnet.h"

namespace ftclos {

struct SubnetFabric {
  Fabric fabric;
  LidMap lids;
  std::vector<int> switch_of;  // per subnet node: its fabric index for a switch, else -1
  int unrouted_ports = 0;      // CA ports with LIDs but no cable: not in the fabric
};

/// Fails, naming the node, port or LID, on an index or port out of range, a
/// port cabled twice, a CA whose LMC is not the subnet's, or a LID owned twice.
Result<SubnetFabric> fabric_from_subnet(const ftclos_subnet& subnet);

}  // namespace ftclos
