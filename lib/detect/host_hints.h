// Reading the operator's hints in OpenSM's ftree formats: cn_guid_file,
// io_guid_file and root_guid_file hold one GUID per line (0x-prefixed or
// plain hex); blank lines and lines starting with '#' are skipped. A GUID
// names a node by its node GUID or one of its port GUIDs (port_guid).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/levels.h"

namespace ftclos {

/// Where the three hint files are; an empty path means no such hint.
struct HintFiles {
  std::string cn_guid_file{}, io_guid_file{}, root_guid_file{};  // {}: designated initializers may skip them
};

/// The hints, and what the reader should hear about them.
struct ReadHints {
  HostHints hints;
  std::vector<std::string> warnings;  // "file:line: ..." for GUIDs that name no node of the fabric
};

/// Reads the files given and checks them against `fabric`. Errors name the
/// GUID and file:line: a line that is not one GUID; a file of GUIDs none of
/// which names a node of the fabric (the wrong fabric, or the wrong kind
/// of GUID); a root that names a CA; a compute or I/O GUID that names a
/// switch; a CA in both the compute and the I/O file. A GUID that names no
/// node while others of its file do is a warning: on a real cluster a node
/// may be down.
Result<ReadHints> read_host_hints(const HintFiles& files, const Fabric& fabric);

/// The GUIDs a hint names `node` by: its node GUID and every port's GUID.
std::vector<uint64_t> hint_guids(const Node& node);

}  // namespace ftclos
