// Reading the operator's hints in OpenSM's ftree formats: cn_guid_file,
// io_guid_file and root_guid_file hold one GUID per line (0x-prefixed or
// plain hex); blank lines and lines starting with '#' are skipped.
#pragma once

#include <string>

#include "core/status.h"
#include "detect/levels.h"

namespace ftclos {

/// Where the three hint files are; an empty path means no such hint.
struct HintFiles {
  std::string cn_guid_file{}, io_guid_file{}, root_guid_file{};  // {}: designated initializers may skip them
};

/// Reads the files given. Errors name the file and line.
Result<HostHints> read_host_hints(const HintFiles& files);

}  // namespace ftclos
