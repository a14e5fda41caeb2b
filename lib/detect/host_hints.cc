#include "detect/host_hints.h"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <string_view>

#include "core/files.h"

namespace ftclos {
namespace {

Status read_guids(const std::string& path, std::set<uint64_t>& out) {
  if (path.empty()) return Status::Ok();
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  std::istringstream lines(*text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::string_view word = line;
    const size_t first = word.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || word[first] == '#') continue;
    word = word.substr(first, word.find_last_not_of(" \t\r") - first + 1);
    if (word.starts_with("0x") || word.starts_with("0X")) word.remove_prefix(2);
    uint64_t guid = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), guid, 16);
    if (word.empty() || error != std::errc() || end != word.data() + word.size())
      return Status::Error(fmt::format("{}:{}: expected one GUID (hex, e.g. 0x0002c90300001234), got \"{}\"", path,
                                       number, excerpt(line)));
    out.insert(guid);
  }
  return Status::Ok();
}

}  // namespace

Result<HostHints> read_host_hints(const HintFiles& files) {
  HostHints hints;
  if (Status s = read_guids(files.cn_guid_file, hints.compute); !s.ok()) return s;
  if (Status s = read_guids(files.io_guid_file, hints.io); !s.ok()) return s;
  if (Status s = read_guids(files.root_guid_file, hints.roots); !s.ok()) return s;
  return hints;
}

}  // namespace ftclos
