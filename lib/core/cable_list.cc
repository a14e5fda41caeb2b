#include "core/cable_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace ftclos {
namespace {

uint64_t node_key(const CableEnd& end) { return end.node_guid ? end.node_guid : end.port_guid; }

// What the list says of one node before the fabric is built.
struct NodeInfo {
  NodeType type = NodeType::kCa;
  int num_ports = 0;
  std::string description;
  std::string first_where;
  std::map<int, CableEnd> ends;  // by port (0 for a switch): its GUID and LID
};

// One end of a cable as listed: its peer and where.
struct Listing {
  uint64_t peer = 0;
  int peer_port = 0;
  std::string where;
};

class Builder {
 public:
  Status add(const Cable& cable) {
    if (Status status = note(cable.a, cable.where); !status.ok()) return status;
    if (Status status = note(cable.b, cable.where); !status.ok()) return status;
    if (Status status = list(cable.a, cable.b, cable.where); !status.ok()) return status;
    if (Status status = list(cable.b, cable.a, cable.where); !status.ok()) return status;
    rates_[{node_key(cable.a), cable.a.port}] = cable.rate;
    return Status::Ok();
  }

  Result<Fabric> finish() {
    Fabric fabric;
    std::unordered_map<uint64_t, int> index;
    for (NodeType type : {NodeType::kSwitch, NodeType::kCa})
      for (uint64_t key : order_) {
        const NodeInfo& info = nodes_.at(key);
        if (info.type != type) continue;
        const std::string name = fmt::format("{}-{:016x}", type == NodeType::kSwitch ? 'S' : 'H', key);
        Result<int> added = fabric.add_node(type, name, info.num_ports, key);
        if (!added.ok()) return Status::Error(fmt::format("{}: {}", info.first_where, added.status().message()));
        Node& node = fabric.node(*added);
        node.description = info.description;
        for (const auto& [port, end] : info.ends) {
          Port& target = node.ports[port];
          target.lid = end.lid;
          target.lmc = end.lmc;
          target.guid = end.port_guid;
        }
        index[key] = *added;
      }
    for (const auto& [end, listing] : listings_) {
      const PortRef here{index.at(end.first), end.second}, there{index.at(listing.peer), listing.peer_port};
      if (Status status = fabric.connect(here, there); !status.ok())
        return Status::Error(fmt::format("{}: {}", listing.where, status.message()));
    }
    for (const auto& [end, rate] : rates_) {
      const PortRef here{index.at(end.first), end.second};
      fabric.port(here).rate = rate;
      fabric.port(fabric.peer(here)).rate = rate;
    }
    return fabric;
  }

  // Records the node and port of a cable end.
  Status note(const CableEnd& end, const std::string& where) {
    const uint64_t key = node_key(end);
    if (end.port < 1 || end.port > 254)
      return Status::Error(fmt::format("{}: port {} of {}; expected a port 1..254", where, end.port, format_guid(key)));
    auto [it, added] = nodes_.try_emplace(key);
    NodeInfo& info = it->second;
    if (added) {
      order_.push_back(key);
      info.type = end.type;
      info.description = end.description;
      info.first_where = where;
    } else if (info.type != end.type || info.description != end.description) {
      return Status::Error(fmt::format("{}: node {} is a {} \"{}\" here but a {} \"{}\" at {}; expected one node per "
                                       "GUID",
                                       where, format_guid(key), end.type == NodeType::kSwitch ? "switch" : "CA",
                                       end.description, info.type == NodeType::kSwitch ? "switch" : "CA",
                                       info.description, info.first_where));
    }
    info.num_ports = std::max({info.num_ports, end.num_ports, end.port});
    if (end.num_ports && end.port > end.num_ports)
      return Status::Error(fmt::format("{}: port {} is above the port count {} of \"{}\"", where, end.port,
                                       end.num_ports, end.description));
    // A switch's LID is its port 0's, the same on every port line.
    const auto [seen, first] = info.ends.try_emplace(end.type == NodeType::kSwitch ? 0 : end.port, end);
    if (!first && seen->second.lid != end.lid)
      return Status::Error(fmt::format("{}: \"{}\" has LID {} here but {} at {}; expected one LID per {}", where,
                                       end.description, end.lid, seen->second.lid, info.first_where,
                                       end.type == NodeType::kSwitch ? "switch" : "port"));
    return Status::Ok();
  }

 private:
  Status list(const CableEnd& end, const CableEnd& peer, const std::string& where) {
    const std::pair<uint64_t, int> here{node_key(end), end.port};
    const auto [it, added] = listings_.try_emplace(here, Listing{node_key(peer), peer.port, where});
    const Listing& first = it->second;
    if (added || (first.peer == node_key(peer) && first.peer_port == peer.port)) return Status::Ok();
    return Status::Error(fmt::format("{}: port {} of \"{}\" is cabled to port {} of {} here but to port {} of {} at "
                                     "{}; expected one peer per port",
                                     where, end.port, end.description, peer.port, format_guid(node_key(peer)),
                                     first.peer_port, format_guid(first.peer), first.where));
  }

  std::unordered_map<uint64_t, NodeInfo> nodes_;
  std::vector<uint64_t> order_;
  std::map<std::pair<uint64_t, int>, Listing> listings_;
  std::map<std::pair<uint64_t, int>, LinkRate> rates_;
};

}  // namespace

Result<Fabric> build_from_cables(const std::vector<Cable>& cables) {
  Builder builder;
  // Nodes in the order the list's near ends name them, as the tools list
  // their nodes (a node named only as a far end comes after).
  for (const Cable& cable : cables)
    if (Status status = builder.note(cable.a, cable.where); !status.ok()) return status;
  for (const Cable& cable : cables)
    if (Status status = builder.add(cable); !status.ok()) return status;
  return builder.finish();
}

}  // namespace ftclos
