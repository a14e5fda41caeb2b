// What multicast forwarding tables do (opensm.mcfdbs, or ftclos's own
// trees): every member of a group must receive what any other member sends,
// once. A switch forwards a group's packet to every port of the MLID's MFT
// entry but the one it came in on; members are the CA ports the entries
// lead to and the switches whose entry holds port 0. The channel
// dependencies of the trees join the unicast ones in check_correctness
// (AuditInput::mcast), so credit loops are counted for both together.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "paths/mcast_tree.h"

namespace ftclos {

struct McastCheck {
  int groups = 0;
  long members = 0;    // member ports, summed over the groups
  long pairs = 0;      // (sending member, receiving member) pairs examined
  long unreached = 0;  // pairs whose packets never arrive
  long looping = 0;    // sending members whose packets come back to a switch (a cycle in the tables)
  std::vector<std::string> examples;  // a few cases per kind, for people
};

/// Floods one packet from every member of every group through the tables.
McastCheck check_multicast(const Fabric& fabric, const std::vector<McastForwarding>& groups);

/// Calls visit(channel, out_port) for every channel dependency the group's
/// packets make: a packet the switch at channel's end receives from it
/// leaves on out_port, a port to another switch (channels: switch egress
/// ports cabled to switches, as in audit.h).
template <class Visit>
void for_each_multicast_dependency(const Fabric& fabric, const McastForwarding& group, Visit visit) {
  for (int y = 0; y < static_cast<int>(group.ports.size()); ++y) {
    for (const uint8_t q : group.ports[y]) {
      const PortRef channel{y, q};
      const PortRef in = q == 0 ? PortRef{} : fabric.peer(channel);
      if (!in.valid() || !fabric.node(in.node).is_switch()) continue;
      for (const uint8_t out : group.ports[in.node]) {
        if (out == in.port || out == 0) continue;
        const PortRef next = fabric.peer({in.node, out});
        if (next.valid() && fabric.node(next.node).is_switch()) visit(channel, static_cast<int>(out));
      }
    }
  }
}

}  // namespace ftclos
