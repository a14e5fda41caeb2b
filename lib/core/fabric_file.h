// Any fabric file an operator has, its format told by its content: the
// ibnetdiscover text (plain or -g, also ibsim's net files; core/netfile.h),
// `ibnetdiscover -p`, `iblinkinfo`, opensm-subnet.lst and ibnetdiscover's
// binary cache (core/fabric_formats.h).
//
// A terminal capture is read for what is unambiguous, each repair a warning:
// CRLF line ends, lines before the output and after it that belong to no
// format (a banner, a shell prompt, an ibnetdiscover warning on stderr)
// skipped, and a Switch/Ca/Hca keyword glued to its port count by lost tabs
// (`Switch41`) split. Anything else that does not parse fails with
// file:line, the text (cut) and what was expected.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

struct FabricFile {
  Fabric fabric;
  std::string format;                 // "ibnetdiscover", "ibnetdiscover -p", "iblinkinfo", ...
  std::vector<std::string> warnings;  // "PATH:LINE: what was repaired or skipped"
};

/// Parses text of any of the text formats; `source` names it in errors.
Result<FabricFile> parse_fabric_text(std::string_view text, std::string_view source);
/// Reads a file of any format, the binary cache included.
Result<FabricFile> read_fabric_file(const std::string& path);

/// read_fabric_file, then split_end_nodes (core/end_nodes.h): the fabric
/// every command detects, routes and audits; the repairs' warnings are
/// added to `warnings` when given. A file without a cabled node is an error.
Result<Fabric> read_end_nodes(const std::string& path, std::vector<std::string>* warnings = nullptr);

}  // namespace ftclos
