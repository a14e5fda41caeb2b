// Mellanox ibdm's .topo fabric files (ibutils' ibdm-topo-file(1)): blocks of
//
//   TYPE NAME [CFG: board=modifier,...]
//      PORT -[width[-speed]]-> PEER-TYPE PEER-NAME PEER-PORT
//
// ended by a blank line, with `#` comment lines. Every TYPE is a system (a
// switch chassis, an HCA) that an IBNL file defines (core/ibnl.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

/// Builds the fabric of .topo text. Each system is built from the IBNL file
/// of its type found in `ibnl_dirs` (core/ibnl_library.h), with the boards its
/// CFG names dropped or varied, its nodes named by core/ibnl_build.h, in the
/// order the text first mentions the systems, and every node gets a GUID
/// derived from its name (core/name_guids.h). A cable runs at the rate its
/// line gives (4x and 2.5G when the arrow omits them, as in ibdm): 2.5G is
/// SDR, 5G DDR, 10G QDR. Errors read "source:line: what was expected": a
/// malformed line, an unknown system type (naming the directories
/// searched), a system given two types or two CFGs, a port its system does
/// not have or that is on a dropped board, a port cabled twice; errors in
/// an IBNL file name its path and line.
Result<Fabric> parse_topo_file(std::string_view text, std::string_view source,
                               const std::vector<std::string>& ibnl_dirs);
/// Reads and parses a file; the error names the path.
Result<Fabric> read_topo_file(const std::string& path, const std::vector<std::string>& ibnl_dirs);

}  // namespace ftclos
