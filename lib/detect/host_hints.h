// Reading the operator's hints in OpenSM's ftree formats: cn_guid_file,
// io_guid_file and root_guid_file hold one GUID per line (0x-prefixed or
// plain hex); blank lines and lines starting with '#' are skipped.
#pragma once

#include <string>

#include "core/status.h"
#include "detect/levels.h"

namespace ftclos {

/// Reads the three files; an empty path means no such hint. Errors name
/// the file and line.
Result<HostHints> read_host_hints(const std::string& cn_guid_file, const std::string& io_guid_file,
                                  const std::string& root_guid_file);

}  // namespace ftclos
