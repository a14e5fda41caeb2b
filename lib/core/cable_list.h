// A fabric from a list of cables, each end described by what a subnet tool
// prints of it (type, GUIDs, LID, port, description): the common ground of
// `ibnetdiscover -p`, `iblinkinfo`, opensm-subnet.lst and ibnetdiscover's
// binary cache. Nodes are named as ibnetdiscover names them ("S-<node
// GUID>", "H-<node GUID>"), so every format reads to the same fabric.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

struct CableEnd {
  NodeType type = NodeType::kCa;
  uint64_t node_guid = 0;  // 0 when the format does not print it: a CA is then known by its port GUID
  uint64_t port_guid = 0;  // a switch's is its node GUID (port 0)
  int port = 0;
  int num_ports = 0;  // 0 when the format does not print it: the highest port seen
  uint16_t lid = 0;   // the switch's (port 0) or the CA port's base LID
  uint8_t lmc = 0;
  std::string description;
};

struct Cable {
  CableEnd a, b;
  LinkRate rate;
  std::string where;  // "file:line" for errors
};

/// Builds the fabric of `cables`; a cable may be listed from both ends (the
/// second listing must agree). Nodes come in the order the list first names
/// them, switches before CAs, as ibnetdiscover prints them. Errors name the
/// cable's `where`: a port cabled to two peers, a node given two
/// descriptions, LIDs or types, a port above the node's port count.
Result<Fabric> build_from_cables(const std::vector<Cable>& cables);

}  // namespace ftclos
