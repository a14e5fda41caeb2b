// End nodes: routing and auditing address CA ports, not CAs. An HCA cabled
// on port 2 only, or on both ports into one fabric (dual rail), must be
// routed on exactly the ports that are cabled, so every consumer sees each
// cabled CA port as a one-port CA node of its own.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

/// The fabric with every cabled CA port a one-port CA node whose port 1 is
/// that port (its peer, port GUID, LID and LMC). A CA with one cabled port
/// keeps its name, GUID and description; a CA with several gives one node
/// per cabled port, named "<name>-p<port>", node GUID + port, description
/// "<description> port <port>". CA ports without a cable get no node.
/// Switches keep their ports; nodes keep their order. `new_index` (when
/// given) maps each node to its new index: a CA to its first end node, -1
/// when it has none.
Fabric split_end_nodes(const Fabric& fabric, std::vector<int>* new_index = nullptr);

/// True when every CA already has exactly one port, port 1, cabled:
/// split_end_nodes would return the fabric unchanged.
bool has_split_end_nodes(const Fabric& fabric);

}  // namespace ftclos
