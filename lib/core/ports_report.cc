// `ibnetdiscover -p`: one line per port of every node, the cable's far end after " - ".
#include <fmt/format.h>

#include <map>

#include "core/cable_list.h"
#include "core/fabric_formats.h"
#include "core/files.h"
#include "core/words.h"

namespace ftclos {
namespace {

constexpr std::string_view kExpected =
    "expected \"SW|CA LID PORT 0xGUID WIDTH SPEED - SW|CA LID PORT 0xGUID ( 'description' - 'description' )\" "
    "(ibnetdiscover -p)";

bool read_end(const std::vector<std::string_view>& words, size_t at, CableEnd& end) {
  if (words[at] != "SW" && words[at] != "CA") return false;
  end.type = words[at] == "SW" ? NodeType::kSwitch : NodeType::kCa;
  if (!read_number(words[at + 1], end.lid) || !read_number(words[at + 2], end.port) ||
      !read_number(words[at + 3], end.port_guid, 16))
    return false;
  if (end.type == NodeType::kSwitch) end.node_guid = end.port_guid;
  return true;
}

}  // namespace

Result<Fabric> parse_ports_report(std::string_view text, std::string_view source) {
  std::vector<Cable> cables;
  std::map<uint64_t, int> highest_port;  // a switch's dark ports count towards its port count
  Status read = for_each_line(text, [&](std::string_view line, int number) {
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) return Status::Ok();
    const auto fail = [&] {
      return Status::Error(fmt::format("{}:{}: {}, got \"{}\"", source, number, kExpected, excerpt(line)));
    };
    Cable cable;
    cable.where = fmt::format("{}:{}", source, number);
    if (words.size() < 6 || !read_end(words, 0, cable.a)) return fail();
    int& highest = highest_port[cable.a.port_guid];
    highest = std::max(highest, cable.a.port);
    // An unlinked port ends in its node's 'description'.
    if (words.size() < 7 || words[6] != "-") return Status::Ok();
    if (words.size() < 11 || !read_end(words, 7, cable.b)) return fail();
    cable.rate = parse_link_rate(fmt::format("{}{}", words[4], words[5])).value_or(LinkRate{});
    const size_t open = line.find("( '"), middle = line.rfind("' - '"), close = line.rfind("' )");
    if (open == std::string_view::npos || middle == std::string_view::npos || close == std::string_view::npos ||
        !(open < middle && middle < close))
      return fail();
    cable.a.description = line.substr(open + 3, middle - open - 3);
    cable.b.description = line.substr(middle + 5, close - middle - 5);
    cables.push_back(std::move(cable));
    return Status::Ok();
  });
  if (!read.ok()) return read;
  for (Cable& cable : cables)
    for (CableEnd* end : {&cable.a, &cable.b})
      if (end->type == NodeType::kSwitch) end->num_ports = highest_port[end->port_guid];
  if (cables.empty()) return Status::Error(fmt::format("{}: no cabled port; {}", source, kExpected));
  return build_from_cables(cables);
}

}  // namespace ftclos
