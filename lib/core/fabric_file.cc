#include "core/fabric_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/end_nodes.h"
#include "core/fabric_formats.h"
#include "core/files.h"
#include "core/netfile.h"
#include "core/topo_file.h"
#include "core/words.h"

namespace ftclos {
namespace {

// Without leading blanks: ibsim's net files may indent their lines.
std::string_view without_indent(std::string_view line) {
  return line.substr(std::min(line.find_first_not_of(" \t"), line.size()));
}

bool starts_with_any(std::string_view line, std::initializer_list<std::string_view> prefixes) {
  return std::ranges::any_of(prefixes, [&](std::string_view prefix) { return line.starts_with(prefix); });
}

// "SW    40  5 0x..." (ibnetdiscover -p)
bool is_ports_report_line(std::string_view line) {
  const std::vector<std::string_view> words = split_words(line);
  int number = 0;
  return words.size() >= 4 && (words[0] == "SW" || words[0] == "CA") && read_number(words[1], number) &&
         words[3].starts_with("0x");
}

bool is_iblinkinfo_line(std::string_view line) {
  return starts_with_any(line, {"Switch: 0x", "CA: "}) || line.find(")==>") != std::string_view::npos;
}
bool is_subnet_lst_line(std::string_view line) { return starts_with_any(line, {"{ SW", "{ CA"}); }
bool is_netfile_line(std::string_view line) {
  if (line.starts_with('[')) return line.size() > 1 && std::isdigit(static_cast<unsigned char>(line[1]));  // not "[user@host ~]$"
  return starts_with_any(line, {"#", "switchguid=", "caguid=", "vendid=", "devid=", "sysimgguid=", "Switch",
                                "Ca", "Hca", "Non-Chassis", "Chassis", "include"});
}

// "L1/P1 -4X-> MT23108 H-1 P1", "P3 -> Cougar H-3 P1" (ibdm .topo).
bool is_topo_cable_line(std::string_view line) {
  const std::vector<std::string_view> words = split_words(line);
  return words.size() >= 4 && words[1].starts_with('-') && words[1].ends_with("->");
}

// A .topo's systems are built from the IBNL files in ibnl/ beside it, as
// `ftclos import-topo` finds them without options.
Result<Fabric> parse_topo_beside_ibnl(std::string_view text, std::string_view source) {
  return parse_topo_file(text, source, {(std::filesystem::path(source).parent_path() / "ibnl").string()});
}

struct Format {
  std::string_view name;
  std::function<bool(std::string_view)> owns;  // a line of this format
  std::function<Result<Fabric>(std::string_view, std::string_view)> parse;
  bool captured = true;  // may come from a terminal: repair_capture applies
};

const std::vector<Format>& formats() {
  static const std::vector<Format> kFormats{
      {"ibnetdiscover -p", is_ports_report_line, parse_ports_report},
      {"iblinkinfo", is_iblinkinfo_line, parse_iblinkinfo},
      {"opensm-subnet.lst", is_subnet_lst_line, parse_subnet_lst},
      // Before ibnetdiscover, which owns the `#` comment lines a .topo has too.
      {"ibdm .topo", is_topo_cable_line, parse_topo_beside_ibnl, false},
      {"ibnetdiscover", is_netfile_line, parse_netfile},
  };
  return kFormats;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for_each_line(text, [&](std::string_view line, int) {
    lines.push_back(line);
    return Status::Ok();
  });
  return lines;
}

// `Switch41 "S-..."`: a header whose tab was lost, split after its keyword.
bool split_glued_keyword(std::string& line) {
  for (std::string_view keyword : {"Switch", "Hca", "Ca"})
    if (line.size() > keyword.size() && line.starts_with(keyword) &&
        std::isdigit(static_cast<unsigned char>(line[keyword.size()]))) {
      line.insert(keyword.size(), " ");
      return true;
    }
  return false;
}

// The text with a capture's damage repaired; blank lines stand in for the
// skipped ones so that every line keeps its number.
std::string repair_capture(std::string_view text, std::string_view source, const Format& format,
                           std::vector<std::string>& warnings) {
  std::vector<std::string_view> lines = split_lines(text);
  int carriage_returns = 0;
  for (std::string_view& line : lines)
    if (line.ends_with('\r')) {
      line.remove_suffix(1);
      ++carriage_returns;
    }
  if (carriage_returns > 0)
    warnings.push_back(fmt::format("{}: {} lines end in CR LF (a terminal capture?); read without the CR", source,
                                   carriage_returns));
  const auto owned = [&](std::string_view line) { return format.owns(without_indent(line)); };
  const auto first = std::ranges::find_if(lines, owned);
  const auto last = std::ranges::find_if(lines.rbegin(), lines.rend(), owned).base();
  std::string out;
  int glued = 0, first_glued = 0;
  for (auto it = lines.begin(); it != lines.end(); ++it) {
    const int number = static_cast<int>(it - lines.begin()) + 1;
    const bool outside = it < first || it >= last;
    if (outside && !split_words(*it).empty()) {
      warnings.push_back(fmt::format("{}:{}: skipped \"{}\": not {} output ({})", source, number,
                                     excerpt(*it), format.name, it < first ? "a warning, banner or prompt before it" : "a prompt after it"));
      out += '\n';
      continue;
    }
    std::string line(*it);
    if (format.name == "ibnetdiscover" && split_glued_keyword(line) && glued++ == 0) first_glued = number;
    out += line;
    out += '\n';
  }
  if (glued > 0)
    warnings.push_back(fmt::format("{}:{}: {} Switch/Ca/Hca headers have no blank before their port count (tabs "
                                   "lost in a copy?); read as if they had",
                                   source, first_glued, glued));
  return out;
}

// A regular file that starts with libibnetdisc's cache magic, 0x8FE7832B as
// it writes numbers, least significant byte first (anything else goes to
// read_file, which refuses a FIFO without waiting on it).
bool is_ibnd_cache(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  unsigned char head[4] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return in.gcount() == 4 && head[0] == 0x2b && head[1] == 0x83 && head[2] == 0xe7 && head[3] == 0x8f;
}

}  // namespace

Result<FabricFile> parse_fabric_text(std::string_view text, std::string_view source) {
  const std::vector<std::string_view> lines = split_lines(text);
  const auto format = std::ranges::find_if(formats(), [&](const Format& candidate) {
    return std::ranges::any_of(lines, [&](std::string_view line) { return candidate.owns(without_indent(line)); });
  });
  // No line of any format: the net-file reader says what it expected of the first.
  if (format == formats().end()) {
    Result<Fabric> fabric = parse_netfile(text, source);
    if (!fabric.ok()) return fabric.status();
    return FabricFile{std::move(*fabric), "ibnetdiscover", {}};
  }
  FabricFile file;
  file.format = format->name;
  const std::string repaired = format->captured ? repair_capture(text, source, *format, file.warnings) : std::string(text);
  Result<Fabric> fabric = format->parse(repaired, source);
  // The repairs may explain the failure: the first is said with it.
  if (!fabric.ok() && !file.warnings.empty())
    return Status::Error(fmt::format("{} (read as {} after {} repairs, the first: {})", fabric.status().message(),
                                     format->name, file.warnings.size(), file.warnings.front()));
  if (!fabric.ok()) return fabric.status();
  file.fabric = std::move(*fabric);
  return file;
}

Result<FabricFile> read_fabric_file(const std::string& path) {
  if (is_ibnd_cache(path)) {
    Result<Fabric> fabric = load_ibnd_cache(path);
    if (!fabric.ok()) return fabric.status();
    return FabricFile{std::move(*fabric), "ibnetdiscover --cache", {}};
  }
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  return parse_fabric_text(*text, path);
}

Result<Fabric> read_end_nodes(const std::string& path, std::vector<std::string>* warnings) {
  Result<FabricFile> file = read_fabric_file(path);
  if (!file.ok()) return file.status();
  if (warnings) warnings->insert(warnings->end(), file->warnings.begin(), file->warnings.end());
  Fabric split = split_end_nodes(file->fabric);
  // Every check passes on nothing: an empty fabric is a wrong file, not a sound one.
  if (split.size() == 0)
    return Status::Error(fmt::format("{}: no cabled Switch, Ca or Hca record; expected a fabric", path));
  return split;
}

}  // namespace ftclos
