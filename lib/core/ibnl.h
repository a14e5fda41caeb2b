// Mellanox ibdm's IBNL system definitions (ibutils' ibdm/ibnl/*.ibnl): what a
// switch chassis or an HCA is made of. A file holds SYSTEM sections (boards,
// each under one or more names) and one TOPSYSTEM (the product, under all its
// names). A section lists NODE instances (chips: `NODE SW 24 MT47396 U1`) and
// SUBSYSTEM instances (boards, SYSTEMs of the same file: `SUBSYSTEM LEAF
// leaf1`), each followed by its link lines: `5 -> U4 4` (a link to another
// instance's port) or `1 -12x-> P13` (the section exposes the port as P13).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/link_rate.h"
#include "core/status.h"

namespace ftclos {

/// A port of an instance: a port number of a NODE, an exposed port name of
/// a SUBSYSTEM.
struct IbnlEnd {
  std::string instance;
  std::string port;
};

/// `PORT -[w-s]-> INSTANCE PORT` in an instance's block.
struct IbnlLink {
  std::string port;  // of the instance the block belongs to
  IbnlEnd peer;
  LinkRate rate;
  int line = 0;
};

struct IbnlInstance {
  std::string name;
  int line = 0;
  bool is_node = false;
  NodeType type = NodeType::kSwitch;  // nodes only
  int num_ports = 0;                  // nodes only
  std::string master;                 // sub-systems only: a SYSTEM name of the same file
  std::vector<IbnlLink> links;
};

/// `PORT -[w-s]-> NAME` in an instance's block: the section exposes that port
/// as NAME. Its rate is read and dropped: ibdm runs a cable at the rate of
/// the .topo line that declares it.
struct IbnlSystemPort {
  std::string name;
  IbnlEnd inner;
  int line = 0;
};

struct IbnlSystem {
  std::vector<std::string> names;  // `LEAF,LEAF:4x`: a name and its modifier aliases
  int line = 0;
  std::vector<IbnlInstance> instances;
  std::vector<IbnlSystemPort> ports;

  const IbnlInstance* instance(std::string_view name) const;
  const IbnlSystemPort* port(std::string_view name) const;
};

struct IbnlFile {
  std::string path;
  std::vector<IbnlSystem> systems;  // the SYSTEM sections
  IbnlSystem top;                   // the TOPSYSTEM

  /// The SYSTEM section that has this name (`LEAF`, `LEAF:12x`); null when none.
  const IbnlSystem* system(std::string_view name) const;
};

/// Parses IBNL text; errors read "path:line: what was expected". Beyond the
/// syntax it checks what one file can: instance and exposed-port names are
/// unique in a section, a node's ports are within its port count and listed
/// once in its block, links name instances of the section, a node's peer
/// port is a number within its count, and a sub-system's master is a SYSTEM
/// of the file. Which ports a sub-system exposes depends on the variant a
/// .topo CFG picks, so they are looked up when the system is built.
Result<IbnlFile> parse_ibnl(std::string_view text, std::string path);
Result<IbnlFile> read_ibnl(const std::string& path);

/// The names the TOPSYSTEM line declares, read without parsing the rest: how
/// a directory is searched for the file of a system type.
std::vector<std::string> ibnl_top_names(std::string_view text);

/// The rate of a link arrow as ibdm reads it: `->`, `-4x->`, `-12x-5G->`,
/// `-10G->`; widths 1x, 4x, 8x, 12x (X too) and speeds 2.5G (SDR), 5G (DDR),
/// 10G (QDR), 4x and 2.5G when omitted. Nullopt for anything else.
std::optional<LinkRate> parse_link_arrow(std::string_view arrow);
/// What both file formats say of an arrow parse_link_arrow rejects.
std::string bad_arrow_message(std::string_view port, std::string_view arrow);

}  // namespace ftclos
