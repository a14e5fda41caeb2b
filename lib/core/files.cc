#include "core/files.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

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
