// Whole files in and out, with the errors people need: the path and the
// system's reason.
#pragma once

#include <string>

#include "core/status.h"

namespace ftclos {

/// The whole file. Fails with "PATH: cannot read: REASON" (a directory too).
Result<std::string> read_file(const std::string& path);

/// Replaces a regular file at once (written to PATH.tmp, then renamed), so a
/// reader never sees half of it; anything else (/dev/null, a FIFO) is written
/// in place. Fails with "cannot write PATH: REASON" and leaves no PATH.tmp.
Status write_file(const std::string& path, const std::string& text);

}  // namespace ftclos
