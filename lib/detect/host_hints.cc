#include "detect/host_hints.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "core/files.h"

namespace ftclos {
namespace {

struct HintLine {
  uint64_t guid = 0;
  int line = 0;
};

Result<std::vector<HintLine>> read_guids(const std::string& path) {
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  std::vector<HintLine> out;
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
    out.push_back({guid, number});
  }
  return out;
}

// Hint files against the fabric: which node each GUID names.
class HintChecker {
 public:
  explicit HintChecker(const Fabric& fabric) : fabric_(fabric) {
    for (int i = 0; i < fabric.size(); ++i)
      for (const uint64_t guid : hint_guids(fabric.node(i))) node_of_.emplace(guid, i);
  }

  // Reads `path` into `guids`; `switches`: whether its GUIDs must name
  // switches (else CAs). `named` gets, per node the file names, the first
  // line naming it.
  Status read(const std::string& path, bool switches, const char* what, std::set<uint64_t>& guids,
              std::map<int, HintLine>& named, std::vector<std::string>& warnings) const {
    if (path.empty()) return Status::Ok();
    Result<std::vector<HintLine>> lines = read_guids(path);
    if (!lines.ok()) return lines.status();
    std::vector<HintLine> absent;
    for (const HintLine& hint : *lines) {
      guids.insert(hint.guid);
      const auto it = node_of_.find(hint.guid);
      if (it == node_of_.end()) {
        absent.push_back(hint);
        continue;
      }
      const Node& node = fabric_.node(it->second);
      if (node.is_switch() != switches)
        return Status::Error(fmt::format("{}:{}: GUID {} names {} \"{}\"; expected the GUID of a {} ({})", path,
                                         hint.line, format_guid(hint.guid), node.is_switch() ? "switch" : "CA",
                                         node.display_name(), switches ? "switch" : "CA", what));
      named.emplace(it->second, hint);
    }
    if (absent.empty()) return Status::Ok();
    const HintLine& first = absent.front();
    if (absent.size() == lines->size())
      return Status::Error(fmt::format("{}:{}: GUID {} names no node of the fabric, nor does any other GUID of the "
                                       "file; expected the GUIDs of {} of this fabric",
                                       path, first.line, format_guid(first.guid), what));
    warnings.push_back(fmt::format("{}:{}: GUID {} names no node of the fabric (a node down?); {} of the {} GUIDs of "
                                   "the file name none",
                                   path, first.line, format_guid(first.guid), absent.size(), lines->size()));
    return Status::Ok();
  }

 private:
  const Fabric& fabric_;
  std::unordered_map<uint64_t, int> node_of_;
};

}  // namespace

std::vector<uint64_t> hint_guids(const Node& node) {
  std::vector<uint64_t> guids{node.guid};
  for (int p = 0; p <= node.num_ports; ++p) guids.push_back(port_guid(node, p));
  return guids;
}

Result<ReadHints> read_host_hints(const HintFiles& files, const Fabric& fabric) {
  ReadHints out;
  const HintChecker checker(fabric);
  std::map<int, HintLine> compute, io, roots;  // by node
  if (Status s = checker.read(files.cn_guid_file, false, "compute CAs", out.hints.compute, compute, out.warnings);
      !s.ok())
    return s;
  if (Status s = checker.read(files.io_guid_file, false, "I/O CAs", out.hints.io, io, out.warnings); !s.ok()) return s;
  if (Status s = checker.read(files.root_guid_file, true, "root switches", out.hints.roots, roots, out.warnings);
      !s.ok())
    return s;
  // A CA both files name: the one the I/O file names first.
  const std::pair<const int, HintLine>* both = nullptr;
  for (const auto& entry : io)
    if (compute.contains(entry.first) && (!both || entry.second.line < both->second.line)) both = &entry;
  if (both) {
    const HintLine& compute_line = compute.at(both->first);
    return Status::Error(fmt::format("{}:{}: GUID {} names \"{}\", which {}:{} (GUID {}) names a compute CA; expected "
                                     "each CA in one of the two files",
                                     files.io_guid_file, both->second.line, format_guid(both->second.guid),
                                     fabric.node(both->first).display_name(), files.cn_guid_file, compute_line.line,
                                     format_guid(compute_line.guid)));
  }
  return out;
}

}  // namespace ftclos
