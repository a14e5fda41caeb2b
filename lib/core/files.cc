#include "core/files.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftclos {
namespace {

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

Result<std::string> read_file(const std::string& path) {
  std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path.c_str(), "rb"));
  if (!file) return Status::Error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::string text;
  char buffer[1 << 16];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, file.get())) text.append(buffer, n);
  // A directory opens fine and fails on the first read.
  if (std::ferror(file.get())) return Status::Error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  return text;
}

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size == 0) {
    ::close(fd);
    return Status::Error(fmt::format("{}: not mappable", path));
  }
  void* data = ::mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int mmap_errno = errno;
  ::close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) return Status::Error(fmt::format("{}: cannot read: {}", path, std::strerror(mmap_errno)));
  ::madvise(data, info.st_size, MADV_SEQUENTIAL);
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const char*>(data), info.st_size));
}

MappedFile::~MappedFile() { ::munmap(const_cast<char*>(data_), size_); }

void MappedFile::release_before(size_t offset) const {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t end = std::min(offset, size_) / page * page;
  if (end > 0) ::madvise(const_cast<char*>(data_), end, MADV_DONTNEED);
}

Status write_file(const std::string& path, const std::string& text) {
  return write_file(path, [&](const TextSink& sink) { return sink(text); });
}

Status write_file(const std::string& path, const std::function<bool(const TextSink&)>& produce) {
  // /dev/null, a FIFO or a terminal is written in place: renaming over it would replace it.
  struct stat info;
  const bool in_place = ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
  const std::string target = in_place ? path : path + ".tmp";
  auto fail = [&] {
    const std::string reason = std::strerror(errno);
    if (!in_place) std::remove(target.c_str());
    return Status::Error(fmt::format("cannot write {}: {}", path, reason));
  };
  std::unique_ptr<std::FILE, CloseFile> file(std::fopen(target.c_str(), "wb"));
  if (!file) return fail();
  const auto sink = [&](std::string_view chunk) {
    return std::fwrite(chunk.data(), 1, chunk.size(), file.get()) == chunk.size();
  };
  if (!produce(sink) || std::fflush(file.get()) != 0) return fail();
  if (std::fclose(file.release()) != 0) return fail();
  if (!in_place && std::rename(target.c_str(), path.c_str()) != 0) return fail();
  return Status::Ok();
}

}  // namespace ftclos
