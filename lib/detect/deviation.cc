#include "detect/deviation.h"

#include <algorithm>

#include <fmt/format.h>

namespace ftclos {

const char* kind_name(Deviation::Kind kind) {
  switch (kind) {
    case Deviation::Kind::kMissingCable: return "missing-cable";
    case Deviation::Kind::kExtraCable: return "extra-cable";
    case Deviation::Kind::kMiswiredCable: return "miswired-cable";
    case Deviation::Kind::kMissingSwitch: return "missing-switch";
    case Deviation::Kind::kUnexpectedSwitch: return "unexpected-switch";
    case Deviation::Kind::kMissingHost: return "missing-host";
    case Deviation::Kind::kSlowLink: return "slow-link";
  }
  return "?";
}

namespace {

std::string end_name(const Fabric& fabric, PortRef ref) {
  if (!ref.valid()) return "(absent)";
  const std::string& name = fabric.node(ref.node).display_name();
  return ref.port > 0 ? fmt::format("\"{}\"[{}]", name, ref.port) : fmt::format("\"{}\"[?]", name);
}

}  // namespace

std::string describe(const Fabric& fabric, const Deviation& deviation) {
  std::string line = kind_name(deviation.kind);
  if (deviation.at.valid()) line += ": " + end_name(fabric, deviation.at);
  if (deviation.peer.valid() || deviation.kind == Deviation::Kind::kMissingCable)
    line += " - " + end_name(fabric, deviation.peer);
  if (deviation.belongs.valid()) line += ": move the " + end_name(fabric, deviation.peer) + " end to " + end_name(fabric, deviation.belongs);
  if (!deviation.detail.empty()) line += " (" + deviation.detail + ")";
  return line;
}

int PortGuesser::guess(const Fabric& fabric, int node, int role, int key, int missing_here) {
  const Node& n = fabric.node(node);
  std::vector<int>& taken = taken_[node];
  auto usable = [&](int port) {
    return port >= 1 && port <= n.num_ports && !n.ports[port].peer.valid() &&
           std::find(taken.begin(), taken.end(), port) == taken.end();
  };
  int chosen = 0;
  auto it = votes_.find({role, key});
  if (it != votes_.end()) {
    int best_votes = 0;
    for (auto [port, votes] : it->second)
      if (votes > best_votes && usable(port)) best_votes = votes, chosen = port;
  }
  if (chosen == 0 && missing_here == 1) {
    int free_ports = 0, last_free = 0;
    for (int p = 1; p <= n.num_ports; ++p)
      if (usable(p)) ++free_ports, last_free = p;
    if (free_ports == 1) chosen = last_free;
  }
  if (chosen) taken.push_back(chosen);
  return chosen;
}

int PortGuesser::usual_key(int role, int port) const {
  int key = -1, best_votes = 0;
  for (const auto& [role_key, ports] : votes_) {
    if (role_key.first != role) continue;
    auto it = ports.find(port);
    if (it != ports.end() && it->second > best_votes) best_votes = it->second, key = role_key.second;
  }
  return key;
}

}  // namespace ftclos
