// SHARP Aggregation Nodes: every NVIDIA Quantum switch holds one, a CA on a
// port above the switch's external ones (41 on an HDR QM8700, 65 on an NDR
// QM9700) that ibnetdiscover lists with this node description. ANs need
// LIDs and paths (SHARP trees use them) but compute nothing: recognition
// keeps them out of the hosts.
#pragma once

#include <string_view>

#include "core/fabric.h"

namespace ftclos {

inline constexpr std::string_view kAggregationNodeDescription = "Mellanox Technologies Aggregation Node";

/// A CA whose node description is the AN's (a split end node keeps it).
inline bool is_aggregation_node(const Node& node) {
  return !node.is_switch() && node.description == kAggregationNodeDescription;
}

}  // namespace ftclos
