#include "core/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftclos {
namespace {

constexpr size_t kExcerptBytes = 200;

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

Status cannot_read(const std::string& path, int error) {
  return Status::Error(fmt::format("{}: cannot read: {}", path, std::strerror(error)));
}

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "no regular file";
}

// Opens `path` for reading without waiting on a FIFO (O_NONBLOCK) and checks
// that it is a regular file; `not_regular` tells that failure apart.
Result<int> open_regular(const std::string& path, struct stat& info, bool* not_regular = nullptr) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return cannot_read(path, errno);
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    return cannot_read(path, error);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    if (not_regular) *not_regular = true;
    return Status::Error(fmt::format("{}: not a regular file ({}); expected a file", path, file_kind(info.st_mode)));
  }
  return fd;
}

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, CloseFile>;

// Hands `produce` a sink into `file` and closes it, on the disk first with
// `sync`; false (errno set) when a write, the sync or the close failed.
bool produce_into(File file, const TextProducer& produce, bool sync = false) {
  const auto sink = [&](std::string_view chunk) {
    return std::fwrite(chunk.data(), 1, chunk.size(), file.get()) == chunk.size();
  };
  if (!produce(sink) || std::fflush(file.get()) != 0) return false;
  if (sync && ::fsync(::fileno(file.get())) != 0) return false;
  return std::fclose(file.release()) == 0;
}

// The folder of `path` on the disk: a rename in it survives a crash.
void sync_folder(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the rename is done; only its durability is not known
  ::fsync(fd);
  ::close(fd);
}

Status cannot_write(const std::string& path, int error) {
  return Status::Error(fmt::format("cannot write {}: {}", path, std::strerror(error)));
}

// A new file beside `path` that nobody else has: O_EXCL fails on anything
// already there, a symlink included, so nothing planted is followed or
// replaced. Sets `temporary` to its name.
Result<int> create_temporary(const std::string& path, mode_t mode, std::string& temporary) {
  std::random_device entropy;
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = fmt::format("{}.{:08x}.tmp", path, entropy());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    if (errno != EEXIST) return cannot_write(path, errno);
  }
  return cannot_write(path, EEXIST);
}

}  // namespace

Status line_too_long(std::string_view name, int number) {
  return Status::Error(fmt::format("{}:{}: a line of more than {} KiB; no line of this format is that long", name,
                                   number, kMaxLineBytes >> 10));
}

Status check_line_lengths(std::string_view text, std::string_view name) {
  int number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    const size_t end = std::min(text.find('\n', start), text.size());
    if (end - start > kMaxLineBytes) return line_too_long(name, number);
    start = end + 1;
  }
  return Status::Ok();
}

std::string excerpt(std::string_view text) {
  if (text.size() <= kExcerptBytes) return std::string(text);
  return fmt::format("{}... ({} more bytes)", text.substr(0, kExcerptBytes), text.size() - kExcerptBytes);
}

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  struct stat info;
  Result<int> opened = open_regular(path, info);
  if (!opened.ok()) return opened.status();
  FileDescriptor fd(*opened);
  auto too_large = [&] {
    return Status::Error(fmt::format("{}: more than {} MiB; no file of this format is that large", path,
                                     max_bytes >> 20));
  };
  if (static_cast<uint64_t>(info.st_size) > max_bytes) return too_large();
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot_read(path, errno);
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > max_bytes) return too_large();  // it grew while read
  }
  if (Status status = check_line_lengths(text, path); !status.ok()) return status;
  return text;
}

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
  struct stat info;
  bool not_regular = false;
  Result<int> opened = open_regular(path, info, &not_regular);
  if (not_regular) return Status::Error(fmt::format("{}: not mappable", path));
  if (!opened.ok()) return opened.status();
  FileDescriptor fd(*opened);  // the mapping keeps the file
  if (info.st_size == 0) return Status::Error(fmt::format("{}: not mappable", path));
  void* data = ::mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (data == MAP_FAILED) return cannot_read(path, errno);
  ::madvise(data, info.st_size, MADV_SEQUENTIAL);
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const char*>(data), info.st_size));
}

MappedFile::~MappedFile() { ::munmap(const_cast<char*>(data_), size_); }

void MappedFile::release_before(size_t offset) const {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t end = std::min(offset, size_) / page * page;
  if (end > 0) ::madvise(const_cast<char*>(data_), end, MADV_DONTNEED);
}

OutputFiles::~OutputFiles() {
  for (const Pending& pending : pending_) ::unlink(pending.temporary.c_str());
}

Status OutputFiles::write(const std::string& path, const TextProducer& produce) {
  // /dev/null, a FIFO or a terminal is written in place: renaming over it would replace it.
  struct stat info;
  const bool exists = ::stat(path.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) {
    // No O_CREAT: if it went away meanwhile, nothing is created in its place.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    File file(fd < 0 ? nullptr : ::fdopen(fd, "wb"));
    if (fd >= 0 && !file) ::close(fd);
    if (!file || !produce_into(std::move(file), produce)) return cannot_write(path, errno);
    return Status::Ok();
  }
  // The mode of the file replaced, else what a new file gets (0644 less the umask, applied by open).
  const mode_t mode = exists ? (info.st_mode & 07777) : 0644;
  std::string temporary;
  Result<int> created = create_temporary(path, mode, temporary);
  if (!created.ok()) return created.status();
  if (exists) ::fchmod(*created, mode);  // the umask narrowed it at creation
  File file(::fdopen(*created, "wb"));
  if (!file) ::close(*created);
  if (!file || !produce_into(std::move(file), produce, sync_ == Sync::kDurable)) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return cannot_write(path, error);
  }
  pending_.push_back({path, std::move(temporary)});
  return Status::Ok();
}

Status OutputFiles::commit() {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (std::rename(pending_[i].temporary.c_str(), pending_[i].path.c_str()) != 0) {
      const Status failed = cannot_write(pending_[i].path, errno);
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<long>(i));  // those are in place
      return failed;
    }
    if (sync_ == Sync::kDurable) sync_folder(pending_[i].path);
  }
  pending_.clear();
  return Status::Ok();
}

Status write_file(const std::string& path, const std::string& text) {
  return write_file(path, [&](const TextSink& sink) { return sink(text); });
}

Status write_file(const std::string& path, const TextProducer& produce) {
  OutputFiles outputs;
  if (Status status = outputs.write(path, produce); !status.ok()) return status;
  return outputs.commit();
}

Status write_file_durably(const std::string& path, const std::string& text) {
  OutputFiles outputs(OutputFiles::Sync::kDurable);
  if (Status status = outputs.write(path, [&](const TextSink& sink) { return sink(text); }); !status.ok())
    return status;
  return outputs.commit();
}

}  // namespace ftclos
