// Whole files in and out, with the errors people need: the path and the
// system's reason.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace ftclos {

/// The whole file. Fails with "PATH: cannot read: REASON" (a directory too).
Result<std::string> read_file(const std::string& path);

/// Replaces a regular file at once (written to PATH.tmp, then renamed), so a
/// reader never sees half of it; anything else (/dev/null, a FIFO) is written
/// in place. Fails with "cannot write PATH: REASON" and leaves no PATH.tmp.
Status write_file(const std::string& path, const std::string& text);

/// Takes text in chunks as a writer produces it; false when it cannot (the
/// writer stops).
using TextSink = std::function<bool(std::string_view)>;

/// write_file for text too large to hold at once: `produce` hands it to the
/// sink chunk by chunk and returns false when the sink refused one. Same
/// replacement and errors.
Status write_file(const std::string& path, const std::function<bool(const TextSink&)>& produce);

}  // namespace ftclos
