#include "core/ibnl_library.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/files.h"

namespace ftclos {

Result<const IbnlFile*> IbnlLibrary::find(const std::string& type) {
  for (const std::string& dir : dirs_) {
    const Candidate* match = nullptr;
    for (const Candidate& candidate : candidates(dir)) {
      if (std::find(candidate.names.begin(), candidate.names.end(), type) == candidate.names.end()) continue;
      if (!match) match = &candidate;
      if (std::filesystem::path(candidate.path).stem() == type) {
        match = &candidate;
        break;
      }
    }
    if (match) return load(match->path);
  }
  return nullptr;
}

const std::vector<IbnlLibrary::Candidate>& IbnlLibrary::candidates(const std::string& dir) {
  auto [it, added] = candidates_.try_emplace(dir);
  if (!added) return it->second;
  std::error_code error;  // a directory that does not exist has no candidates
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() != ".ibnl") continue;
    Result<std::string> text = read_file(entry.path().string());
    if (text.ok()) it->second.push_back({entry.path().string(), ibnl_top_names(*text)});
  }
  // Directory order is the file system's; the first match must not depend on it.
  std::sort(it->second.begin(), it->second.end(),
            [](const Candidate& a, const Candidate& b) { return a.path < b.path; });
  return it->second;
}

Result<const IbnlFile*> IbnlLibrary::load(const std::string& path) {
  if (auto it = files_.find(path); it != files_.end()) return it->second.get();
  Result<IbnlFile> file = read_ibnl(path);
  if (!file.ok()) return file.status();
  return files_.emplace(path, std::make_unique<IbnlFile>(std::move(*file))).first->second.get();
}

}  // namespace ftclos
