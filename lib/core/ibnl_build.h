// One system of a .topo fabric built into a Fabric from its IBNL definition,
// as ibdm builds it: every node of every board present, the links between
// them, and the ports the system exposes for cables.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/ibnl.h"
#include "core/link_rate.h"
#include "core/status.h"

namespace ftclos {

/// A .topo CFG: board path (`leaf1`; `leaf1/sub` for a board on a board) ->
/// modifier. `R`, `X` or `Removed` drops the board; any other modifier picks
/// the board's variant, the SYSTEM named `MASTER:modifier` (`LEAF:12x`).
using BoardModifiers = std::map<std::string, std::string>;

/// Cables node ports and remembers where each cable was declared, so that a
/// port cabled twice names both declarations.
class CableLog {
 public:
  /// Cables a to b at `rate`. The same pair declared again keeps the slower
  /// rate (a link runs at its slower end's). Fails with "WHERE: WHAT: port P
  /// of "NODE" is already cabled to "PEER"[Q] at FIRST-WHERE" when either
  /// port is cabled elsewhere.
  Status connect(Fabric& fabric, PortRef a, PortRef b, LinkRate rate, const std::string& where, std::string_view what);

 private:
  std::map<PortRef, std::string> where_;  // the first declaration of each cabled port
};

/// A system in the fabric: its exposed ports, by name.
struct BuiltSystem {
  std::map<std::string, PortRef> ports;
  std::map<std::string, std::string> removed;  // exposed ports of dropped boards: port -> board path
};

/// Adds system `name`, of the type `file`'s TOPSYSTEM defines, with its
/// boards modified by `modifiers`. Its nodes are named `name` when it has
/// only one, else `name/BOARD-PATH/NODE` as ibdm names them
/// (`SL1-1/leaf1/U1`). A link with an end on a dropped board, or on a port
/// the chosen variant does not expose, is left out (so does ibdm: variants
/// need not expose the same ports). Errors about the modifiers begin with
/// `where` (the .topo line declaring the system); a node port cabled twice
/// names the IBNL lines.
Result<BuiltSystem> build_system(Fabric& fabric, CableLog& cables, const IbnlFile& file, const std::string& name,
                                 const BoardModifiers& modifiers, const std::string& where);

}  // namespace ftclos
