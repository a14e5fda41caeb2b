// Whole files in and out, with the errors people need: the path and the
// system's reason.
#pragma once

#include <functional>
#include <memory>
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

/// A regular file mapped read-only, for inputs too large to copy (a dump of
/// FT(36,3) is 1.3 GB); unmapped when the last owner goes.
class MappedFile {
 public:
  /// Fails with "PATH: cannot read: REASON", as read_file; an empty file or
  /// one that is no regular file (a pipe) fails with "PATH: not mappable" so
  /// the caller can read it instead.
  static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {data_, size_}; }
  /// The bytes before `offset` were read for good: the system may drop their
  /// pages from this process (they are read back from the file if touched).
  void release_before(size_t offset) const;

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_;
  size_t size_;
};

/// Takes text in chunks as a writer produces it; false when it cannot (the
/// writer stops).
using TextSink = std::function<bool(std::string_view)>;

/// write_file for text too large to hold at once: `produce` hands it to the
/// sink chunk by chunk and returns false when the sink refused one. Same
/// replacement and errors.
Status write_file(const std::string& path, const std::function<bool(const TextSink&)>& produce);

}  // namespace ftclos
