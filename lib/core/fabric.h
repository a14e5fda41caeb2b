// The fabric model: switches and channel adapters (CAs), their ports, the
// cables between ports, and the GUIDs/LIDs an InfiniBand subnet assigns.
// A plain value type with flat vectors; no OpenSM types.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/link_rate.h"
#include "core/status.h"

namespace ftclos {

enum class NodeType : uint8_t { kSwitch, kCa };

/// One port of one node: node index in Fabric::nodes() and port number
/// (1-based; 0 is a switch's management port).
struct PortRef {
  int node = -1;
  int port = 0;
  bool valid() const { return node >= 0; }
  auto operator<=>(const PortRef&) const = default;
};

struct Port {
  PortRef peer;        // invalid when nothing is cabled to this port
  uint64_t guid = 0;   // port GUID; 0 when the input does not give one
  uint16_t lid = 0;    // base LID; 0 when unknown
  uint8_t lmc = 0;     // the port owns LIDs lid .. lid + 2^lmc - 1
  LinkRate rate;       // of the cable at this port; unknown when the input does not say
};

struct Node {
  NodeType type = NodeType::kSwitch;
  std::string name;         // unique id, the quoted string of the net file
  std::string description;  // node description; empty when not given
  uint64_t guid = 0;        // node GUID; 0 when the input does not give one
  int num_ports = 0;
  std::vector<Port> ports;  // index 0 .. num_ports; ports[0] is the switch itself

  bool is_switch() const { return type == NodeType::kSwitch; }
  /// The description when there is one, otherwise the name: what people call it.
  const std::string& display_name() const { return description.empty() ? name : description; }
};

class Fabric {
 public:
  /// Adds a node; returns its index. The name must not be in use.
  Result<int> add_node(NodeType type, std::string name, int num_ports, uint64_t guid = 0);
  /// Cables two free ports together. Fails if a port is out of range or
  /// already cabled to a different peer; cabling the same pair twice is a no-op.
  Status connect(PortRef a, PortRef b);
  /// Removes the cable at `a` (and its other end), if any.
  void disconnect(PortRef a);

  int size() const { return static_cast<int>(nodes_.size()); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(int index) const { return nodes_[index]; }
  Node& node(int index) { return nodes_[index]; }
  const Port& port(PortRef ref) const { return nodes_[ref.node].ports[ref.port]; }
  Port& port(PortRef ref) { return nodes_[ref.node].ports[ref.port]; }
  PortRef peer(PortRef ref) const { return port(ref).peer; }
  std::optional<int> find(std::string_view name) const;
  std::optional<int> find_guid(uint64_t node_guid) const;

  int count(NodeType type) const;
  /// Number of cables between switches (each counted once).
  int switch_links() const;
  /// Number of cables, host cables included (each counted once).
  int cable_count() const;

 private:
  std::vector<Node> nodes_;
  std::unordered_map<std::string, int> by_name_;
};

/// Order of nodes by GUID, then name: the tie-break that makes labels
/// independent of the order a file lists nodes in.
bool precedes_by_guid(const Fabric& fabric, int a, int b);

/// The fabric made of the nodes whose `keep` flag is set and the cables among
/// them, in the same order; `new_index` (when given) maps old to new indices
/// (-1 for dropped nodes).
Fabric induced_subfabric(const Fabric& fabric, const std::vector<bool>& keep, std::vector<int>* new_index = nullptr);

/// The channel numbering the load tools share: every port of every node,
/// port 0 included, is one directed channel; port p of node x is channel
/// out[x] + p, and the last element is the channel count.
std::vector<int> first_channels(const Fabric& fabric);

/// The GUID of port `port` of `node` as the subnet sees it: Port::guid when
/// the input gives one, otherwise what ibsim uses: the node GUID for a
/// switch (its port 0 carries it), node GUID + port number for a CA port.
uint64_t port_guid(const Node& node, int port);

/// "0x0002c90300001234" style, as OpenSM and ibnetdiscover print GUIDs.
std::string format_guid(uint64_t guid);

}  // namespace ftclos
