// Whole files in and out, with the errors people need: the path and the
// system's reason. Inputs are regular files only (a FIFO would block, a
// device like /dev/zero never ends); outputs are written to a temporary file
// of their own beside the target and renamed over it when complete, so that a
// planted symlink redirects nothing and a reader never sees half a file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace ftclos {

/// No line of any format ftclos reads is near this long (an LFT entry is
/// under 100 bytes, a net-file port line under 300); a longer one is a wrong
/// or hostile file, refused before it is held or echoed.
inline constexpr size_t kMaxLineBytes = 64 << 10;

/// Files read whole into memory (net files, .topo, IBNL, hint files) are at
/// most this large: FT(36,3)'s net file (13,284 nodes) is 2.1 MB as `gen`
/// writes it, ibnetdiscover's with descriptions and rates a few times that,
/// so even a 100,000-node fabric stays far below. LFT dumps are mapped
/// instead (MappedFile) and have no limit: a 40K-host fabric's is 14.5 GB.
inline constexpr size_t kMaxWholeFileBytes = 256 << 20;

/// The whole file. Fails with "PATH: cannot read: REASON", "PATH: not a
/// regular file (...)" (a FIFO is refused without waiting for a writer),
/// "PATH: ... more than ..." above `max_bytes` and "PATH:LINE: ..." for a
/// line above kMaxLineBytes.
Result<std::string> read_file(const std::string& path, size_t max_bytes = kMaxWholeFileBytes);

/// The first line of `text` longer than kMaxLineBytes as line_too_long's
/// error, or Ok.
Status check_line_lengths(std::string_view text, std::string_view name);
/// "NAME:LINE: a line of more than 64 KiB; ...".
Status line_too_long(std::string_view name, int number);

/// At most ~200 characters of `text` for an error message, the rest counted:
/// a line of a hostile file may be megabytes long.
std::string excerpt(std::string_view text);

/// A regular file mapped read-only, for inputs too large to copy (a dump of
/// FT(36,3) is 1.3 GB); unmapped when the last owner goes.
class MappedFile {
 public:
  /// Fails with "PATH: cannot read: REASON", as read_file; an empty file or
  /// one that is no regular file (a pipe) fails with "PATH: not mappable"
  /// (without waiting on a FIFO) so the caller can go to read_file instead.
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
/// Hands a file's text to the sink chunk by chunk; false when the sink
/// refused one.
using TextProducer = std::function<bool(const TextSink&)>;

/// The outputs of one command, replaced all together or not at all: write()
/// puts each into a new temporary file in its target's folder (created
/// exclusively, never following a link; mode of the file it replaces, else
/// 0644 less the umask), commit() renames them over their targets. Something
/// that is no regular file (/dev/null, a FIFO, a terminal) is written in
/// place at once. Temporaries not committed are removed.
class OutputFiles {
 public:
  /// kDurable also flushes each temporary to the disk before it is renamed and
  /// the folder after: a crash then leaves the old file or the new, never an
  /// empty one (what a file other programs poll needs; a large dump does not).
  enum class Sync : uint8_t { kNone, kDurable };
  explicit OutputFiles(Sync sync = Sync::kNone) : sync_(sync) {}
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  /// Fails with "cannot write PATH: REASON"; the file is then left as it was.
  Status write(const std::string& path, const TextProducer& produce);
  /// Renames every temporary over its target. Fails with "cannot write PATH:
  /// REASON" on the first that cannot be (those before it are in place: a
  /// rename in one folder fails only when the folder itself changed).
  Status commit();

 private:
  struct Pending {
    std::string path;
    std::string temporary;
  };
  std::vector<Pending> pending_;
  Sync sync_;
};

/// One output replaced as OutputFiles does; same errors.
Status write_file(const std::string& path, const std::string& text);
Status write_file(const std::string& path, const TextProducer& produce);
/// The same with OutputFiles::Sync::kDurable.
Status write_file_durably(const std::string& path, const std::string& text);

}  // namespace ftclos
