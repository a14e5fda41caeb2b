#include "audit/mcast_check.h"

#include <fmt/format.h>

#include <algorithm>

namespace ftclos {
namespace {

constexpr size_t kExamplesPerKind = 3;

// A member: a CA port, or port 0 of a member switch; `at` is where its
// packets enter the switches: the switch and the port they come in on.
struct Member {
  PortRef port;
  PortRef at;
};

std::vector<Member> members_of(const Fabric& fabric, const McastForwarding& group) {
  std::vector<Member> members;
  for (int x = 0; x < static_cast<int>(group.ports.size()); ++x)
    for (const uint8_t p : group.ports[x]) {
      if (p == 0) {
        members.push_back({{x, 0}, {x, 0}});
        continue;
      }
      const PortRef peer = fabric.peer({x, p});
      if (peer.valid() && !fabric.node(peer.node).is_switch()) members.push_back({peer, {x, p}});
    }
  return members;
}

std::string member_text(const Fabric& fabric, PortRef member) {
  return member.port == 0 ? fabric.node(member.node).display_name()
                          : fmt::format("{} port {}", fabric.node(member.node).display_name(), member.port);
}

// The members a packet from `source` reaches; sets `loops` when it comes
// back to a switch it already passed.
std::vector<PortRef> flood(const Fabric& fabric, const McastForwarding& group, const Member& source, bool& loops) {
  std::vector<PortRef> reached;
  std::vector<bool> seen(fabric.size(), false);
  std::vector<PortRef> queue{source.at};  // (switch, port the packet came in on)
  seen[source.at.node] = true;
  for (size_t head = 0; head < queue.size(); ++head) {
    const PortRef in = queue[head];
    for (const uint8_t out : group.ports[in.node]) {
      if (out == in.port) continue;
      if (out == 0) {
        reached.push_back({in.node, 0});
        continue;
      }
      const PortRef next = fabric.peer({in.node, out});
      if (!next.valid()) continue;
      if (!fabric.node(next.node).is_switch()) {
        reached.push_back(next);
      } else if (seen[next.node]) {
        loops = true;
      } else {
        seen[next.node] = true;
        queue.push_back(next);
      }
    }
  }
  return reached;
}

}  // namespace

McastCheck check_multicast(const Fabric& fabric, const std::vector<McastForwarding>& groups) {
  McastCheck check;
  std::vector<std::string> unreached_examples, loop_examples;
  for (const McastForwarding& group : groups) {
    ++check.groups;
    const std::vector<Member> members = members_of(fabric, group);
    check.members += static_cast<long>(members.size());
    for (const Member& source : members) {
      bool loops = false;
      std::vector<PortRef> reached = flood(fabric, group, source, loops);
      std::ranges::sort(reached);
      if (loops) {
        ++check.looping;
        if (loop_examples.size() < kExamplesPerKind)
          loop_examples.push_back(fmt::format("MLID 0x{:04X}: packets from {} come back to a switch they passed",
                                              group.mlid, member_text(fabric, source.port)));
      }
      for (const Member& target : members) {
        if (target.port == source.port) continue;
        ++check.pairs;
        if (std::ranges::binary_search(reached, target.port)) continue;
        ++check.unreached;
        if (unreached_examples.size() < kExamplesPerKind)
          unreached_examples.push_back(fmt::format("MLID 0x{:04X}: {} does not reach {}", group.mlid,
                                                   member_text(fabric, source.port), member_text(fabric, target.port)));
      }
    }
  }
  check.examples = std::move(unreached_examples);
  check.examples.insert(check.examples.end(), loop_examples.begin(), loop_examples.end());
  return check;
}

}  // namespace ftclos
