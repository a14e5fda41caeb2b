// Reading and writing the ibnetdiscover text format, which is also ibsim's
// net-file format: `switchguid=`/`caguid=` lines, `Switch N "name"`,
// `Ca`/`Hca N "name"`, port lines `[p] "peer"[q]` with an optional
// `(portguid)`, and `# ...` comments that carry node descriptions and LIDs.
#pragma once

#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

/// Parses net-file text. `source` names the input in errors, which read
/// "source:line: what was expected". A cable listed at one end only (as
/// ibsim, this reader wants both), one that its two ends describe
/// differently, a GUID that names two nodes (node or port GUIDs), a port
/// above the node's port count, a peer that is never defined, and a
/// truncated record are errors.
Result<Fabric> parse_netfile(std::string_view text, std::string_view source);
/// Reads and parses a file; the error names the path.
Result<Fabric> read_netfile(const std::string& path);

/// Writes text that `ibsim -s` loads and parse_netfile reads back to an equal
/// fabric (names, descriptions, GUIDs, LIDs and cables).
std::string write_netfile(const Fabric& fabric);

}  // namespace ftclos
