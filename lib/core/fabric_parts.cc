#include "core/fabric_parts.h"

#include <algorithm>

#include <fmt/format.h>

namespace ftclos {

std::vector<std::vector<int>> fabric_parts(const Fabric& fabric) {
  std::vector<int> part_of(fabric.size(), -1);
  std::vector<std::vector<int>> parts;
  for (int start = 0; start < fabric.size(); ++start) {
    if (part_of[start] >= 0) continue;
    const Node& node = fabric.node(start);
    if (std::none_of(node.ports.begin(), node.ports.end(), [](const Port& p) { return p.peer.valid(); })) continue;
    const int id = static_cast<int>(parts.size());
    std::vector<int> members{start};
    part_of[start] = id;
    for (size_t next = 0; next < members.size(); ++next) {
      for (const Port& port : fabric.node(members[next]).ports) {
        const int peer = port.peer.node;
        if (peer < 0 || part_of[peer] >= 0) continue;
        part_of[peer] = id;
        members.push_back(peer);
      }
    }
    std::sort(members.begin(), members.end());
    parts.push_back(std::move(members));
  }
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return parts;
}

std::string describe_parts(const Fabric& fabric, const std::vector<std::vector<int>>& parts) {
  std::string out = fmt::format("{} parts:", parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    int switches = 0, hosts = 0, named = -1;
    for (int x : parts[i]) {
      const bool is_switch = fabric.node(x).is_switch();
      switches += is_switch;
      hosts += !is_switch;
      if (named < 0 && is_switch) named = x;
    }
    if (named < 0) named = parts[i].front();
    out += fmt::format("{} {} switch{} and {} host{} (\"{}\", ...)", i ? ";" : "", switches, switches == 1 ? "" : "es",
                       hosts, hosts == 1 ? "" : "s", fabric.node(named).display_name());
  }
  return out;
}

}  // namespace ftclos
