// OpenSM's opensm-subnet.lst (the layout of ibdiagnet's .lst too): one line
// per cable end of every node, "{ END } { FAR END } PHY=4x LOG=ACT SPD=2.5".
#include <fmt/format.h>

#include <map>

#include "core/cable_list.h"
#include "core/fabric_formats.h"
#include "core/files.h"
#include "core/words.h"

namespace ftclos {
namespace {

constexpr std::string_view kExpected =
    "expected \"{ SW|CA Ports:NN SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:.. Rev:.. {description} "
    "LID:LLLL PN:PP } { ... } PHY=4x LOG=ACT SPD=2.5\" (opensm-subnet.lst)";

// The hex number after "KEY:" in `end`.
template <class T>
bool field(std::string_view end, std::string_view key, T& value) {
  const size_t at = end.find(fmt::format(" {}:", key));
  if (at == std::string_view::npos) return false;
  const std::string_view rest = end.substr(at + key.size() + 2);
  return read_number(fmt::format("0x{}", rest.substr(0, rest.find(' '))), value, 16);
}

// One "{ ... }" end, which `line` starts with; the line after it is left in `line`.
bool read_end(std::string_view& line, CableEnd& end) {
  if (!line.starts_with("{ ")) return false;
  const size_t description_at = line.find(" {"), description_end = line.find("} LID:", description_at);
  const size_t close = line.find(" }", description_end);
  if (description_at == std::string_view::npos || description_end == std::string_view::npos ||
      close == std::string_view::npos)
    return false;
  const std::string_view type = line.substr(2, line.find(' ', 2) - 2);
  if (type != "SW" && type != "SW-SM" && type != "CA" && type != "CA-SM") return false;
  end.type = type.starts_with("SW") ? NodeType::kSwitch : NodeType::kCa;
  end.description = line.substr(description_at + 2, description_end - description_at - 2);
  const std::string_view ids = line.substr(0, description_at), place = line.substr(description_end, close - description_end);
  if (!field(ids, "Ports", end.num_ports) || !field(ids, "NodeGUID", end.node_guid) ||
      !field(ids, "PortGUID", end.port_guid) || !field(place, "LID", end.lid) || !field(place, "PN", end.port))
    return false;
  line.remove_prefix(close + 2);
  while (line.starts_with(' ')) line.remove_prefix(1);
  return true;
}

LinkRate read_rate(std::string_view line) {
  static const std::map<std::string_view, std::string_view> kSpeeds{
      {"2.5", "SDR"}, {"5", "DDR"}, {"10", "QDR"}, {"FDR10", "FDR10"}, {"14", "FDR"}, {"25", "EDR"}, {"50", "HDR"}};
  const size_t width_at = line.find("PHY="), speed_at = line.find("SPD=");
  if (width_at == std::string_view::npos || speed_at == std::string_view::npos) return {};
  const std::string_view width = line.substr(width_at + 4, line.find(' ', width_at) - width_at - 4);
  const auto speed = kSpeeds.find(split_words(line.substr(speed_at + 4)).front());
  if (speed == kSpeeds.end()) return {};
  return parse_link_rate(fmt::format("{}{}", width, speed->second)).value_or(LinkRate{});
}

}  // namespace

Result<Fabric> parse_subnet_lst(std::string_view text, std::string_view source) {
  std::vector<Cable> cables;
  Status read = for_each_line(text, [&](std::string_view line, int number) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (split_words(line).empty()) return Status::Ok();
    Cable cable;
    cable.where = fmt::format("{}:{}", source, number);
    std::string_view rest = line;
    if (!read_end(rest, cable.a) || !read_end(rest, cable.b) || !rest.starts_with("PHY="))
      return Status::Error(fmt::format("{}: {}, got \"{}\"", cable.where, kExpected, excerpt(line)));
    cable.rate = read_rate(rest);
    cables.push_back(std::move(cable));
    return Status::Ok();
  });
  if (!read.ok()) return read;
  if (cables.empty()) return Status::Error(fmt::format("{}: no cable; {}", source, kExpected));
  return build_from_cables(cables);
}

}  // namespace ftclos
