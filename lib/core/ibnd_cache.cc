// ibnetdiscover's binary cache (`ibnetdiscover --cache FILE`), read by the
// library that writes it: libibnetdisc's ibnd_load_fabric.
#include <fmt/format.h>

#include "core/cable_list.h"
#include "core/fabric_formats.h"

#ifdef FTCLOS_HAVE_IBNETDISC
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include <memory>
#endif

namespace ftclos {

#ifdef FTCLOS_HAVE_IBNETDISC
namespace {

// PortInfo.CapabilityMask's IsExtendedSpeedsSupported (bit 14) and the
// Mellanox ExtendedPortInfo LinkSpeedActive FDR10 bit, as ibnetdiscover reads them.
constexpr uint32_t kHasExtendedSpeeds = 1u << 14;
constexpr uint32_t kFdr10 = 1;

// ibnetdiscover's width and speed of a port, as it prints them ("4xEDR").
LinkRate port_rate(const ibnd_port_t& port) {
  const ibnd_node_t& node = *port.node;
  uint32_t width = mad_get_field(const_cast<uint8_t*>(port.info), 0, IB_PORT_LINK_WIDTH_ACTIVE_F);
  uint32_t speed = mad_get_field(const_cast<uint8_t*>(port.info), 0, IB_PORT_LINK_SPEED_ACTIVE_F);
  const ibnd_port_t* capabilities = node.type == IB_NODE_SWITCH ? node.ports[0] : &port;
  uint32_t extended = 0;
  if (capabilities &&
      (mad_get_field(const_cast<uint8_t*>(capabilities->info), 0, IB_PORT_CAPMASK_F) & kHasExtendedSpeeds))
    extended = mad_get_field(const_cast<uint8_t*>(port.info), 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
  const bool fdr10 = mad_get_field(const_cast<uint8_t*>(port.ext_info), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F) & kFdr10;
  const char* lanes = width == 1 ? "1" : width == 2 ? "4" : width == 4 ? "8" : width == 8 ? "12" : width == 16 ? "2" : "";
  const char* name = extended == 1 ? "FDR" : extended == 2 ? "EDR" : extended == 4 ? "HDR" : extended == 8 ? "NDR"
                     : fdr10       ? "FDR10"
                     : speed == 1  ? "SDR"
                     : speed == 2  ? "DDR"
                     : speed == 4  ? "QDR"
                                   : "";
  return parse_link_rate(fmt::format("{}x{}", lanes, name)).value_or(LinkRate{});
}

CableEnd end_of(const ibnd_port_t& port) {
  const ibnd_node_t& node = *port.node;
  CableEnd end;
  end.type = node.type == IB_NODE_SWITCH ? NodeType::kSwitch : NodeType::kCa;
  end.node_guid = node.guid;
  end.port_guid = end.type == NodeType::kSwitch ? node.guid : port.guid;
  end.port = port.portnum;
  end.num_ports = node.numports;
  end.lid = end.type == NodeType::kSwitch ? node.smalid : port.base_lid;
  end.lmc = end.type == NodeType::kSwitch ? node.smalmc : port.lmc;
  end.description = node.nodedesc;
  return end;
}

}  // namespace

bool can_load_ibnd_cache() { return true; }

Result<Fabric> load_ibnd_cache(const std::string& path) {
  const std::unique_ptr<ibnd_fabric_t, void (*)(ibnd_fabric_t*)> fabric(ibnd_load_fabric(path.c_str(), 0),
                                                                        ibnd_destroy_fabric);
  if (!fabric)
    return Status::Error(fmt::format("{}: libibnetdisc cannot load it (ibnd_load_fabric failed); expected a cache "
                                     "that `ibnetdiscover --cache FILE` wrote",
                                     path));
  struct Walk {
    const std::string& path;
    std::vector<Cable> cables;
    uint64_t router = 0;
  } walk{path, {}, 0};
  // Switches, then CAs, each in the order ibnetdiscover prints them.
  const auto visit = [](ibnd_node_t* node, void* data) {
    Walk& walk = *static_cast<Walk*>(data);
    for (int p = 1; p <= node->numports; ++p) {
      const ibnd_port_t* port = node->ports[p];
      if (!port || !port->remoteport) continue;
      walk.cables.push_back({end_of(*port), end_of(*port->remoteport), port_rate(*port),
                             fmt::format("{}: port {} of {:#x}", walk.path, p, node->guid)});
    }
  };
  ibnd_iter_nodes_type(fabric.get(), visit, IB_NODE_SWITCH, &walk);
  ibnd_iter_nodes_type(fabric.get(), visit, IB_NODE_CA, &walk);
  ibnd_iter_nodes_type(
      fabric.get(), [](ibnd_node_t* node, void* data) { static_cast<Walk*>(data)->router = node->guid; },
      IB_NODE_ROUTER, &walk);
  if (walk.router)
    return Status::Error(fmt::format("{}: router {:#x}; routers are not supported, expected switches and CAs", path,
                                     walk.router));
  const std::vector<Cable>& cables = walk.cables;
  if (cables.empty()) return Status::Error(fmt::format("{}: the cache holds no cable; expected a fabric", path));
  return build_from_cables(cables);
}

#else

bool can_load_ibnd_cache() { return false; }

Result<Fabric> load_ibnd_cache(const std::string& path) {
  return Status::Error(fmt::format("{}: an ibnetdiscover binary cache, and this ftclos was built without libibnetdisc "
                                   "(install libibnetdisc-dev and rebuild), or run `ibnetdiscover --load-cache {}` "
                                   "for its text",
                                   path, path));
}

#endif

}  // namespace ftclos
