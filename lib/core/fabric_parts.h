// A fabric whose cables do not join every node is physically disconnected:
// no routing can join its parts, so it is named as such before routing.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"

namespace ftclos {

/// The connected parts of the fabric that hold a cable, each its node
/// indices in ascending order, largest part first (ties: lowest index).
/// Nodes with no cable belong to no part.
std::vector<std::vector<int>> fabric_parts(const Fabric& fabric);

/// "2 parts: 6 switches and 8 hosts ("L1-0", ...); 1 switch and 1 host
/// ("X1-0", ...)": what an operator needs to find where the fabric splits.
std::string describe_parts(const Fabric& fabric, const std::vector<std::vector<int>>& parts);

}  // namespace ftclos
