#include "audit/mcfdbs_parse.h"

#include <fmt/format.h>

#include <map>
#include <string>

#include "audit/text_lines.h"

namespace ftclos {

Result<std::vector<McastForwarding>> parse_mcfdbs(const Fabric& fabric, const TextFile& file, uint8_t sl) {
  constexpr int kFirstMlid = 0xC000, kLastMlid = 0xFFFE;
  std::map<int, McastForwarding> by_mlid;
  text::Lines lines(file);
  std::string_view line;
  int node = -1;  // the switch of the last "Switch" line
  while (lines.next(line)) {
    auto fail = [&](const std::string& what) {
      return Status::Error(fmt::format("{}:{}: {}", file.name, lines.number(), what));
    };
    line = text::trim(line);
    if (line.empty() || line.starts_with("LID")) continue;
    if (text::consume(line, "Switch ")) {
      uint64_t guid = 0;
      if (!text::parse_number(text::trim(line), guid)) return fail("expected \"Switch 0xGUID\"");
      const std::optional<int> found = fabric.find_guid(guid);
      if (!found || !fabric.node(*found).is_switch())
        return fail(fmt::format("switch {} is not in the topology", format_guid(guid)));
      node = *found;
      continue;
    }
    const size_t colon = line.find(':');
    int mlid = 0;
    if (colon == std::string_view::npos || !text::parse_number(text::trim(line.substr(0, colon)), mlid))
      return fail("expected \"Switch 0xGUID\" or \"0xMLID : 0xPORT ...\"");
    if (node < 0) return fail("an MLID entry before any \"Switch 0xGUID\" line");
    if (mlid < kFirstMlid || mlid > kLastMlid) return fail(fmt::format("MLID {:#x} is outside 0xC000..0xFFFE", mlid));
    McastForwarding& group = by_mlid[mlid];
    if (group.ports.empty()) {
      group.mlid = mlid;
      group.sl = sl;
      group.ports.resize(fabric.size());
    }
    if (!group.ports[node].empty())
      return fail(fmt::format("MLID 0x{:04X} given twice for {}", mlid, fabric.node(node).display_name()));
    std::string_view rest = line.substr(colon + 1);
    for (std::string_view token = text::take_token(rest); !token.empty(); token = text::take_token(rest)) {
      int port = 0;
      if (!text::parse_number(token, port))
        return fail(fmt::format("expected a port number, not \"{}\"", excerpt(token)));
      if (port > fabric.node(node).num_ports)
        return fail(fmt::format("port {} is above {}'s {} ports", port, fabric.node(node).display_name(),
                                fabric.node(node).num_ports));
      group.ports[node].push_back(static_cast<uint8_t>(port));
    }
    if (group.ports[node].empty()) return fail(fmt::format("MLID 0x{:04X} has no ports", mlid));
  }
  if (!lines.status().ok()) return lines.status();
  std::vector<McastForwarding> groups;
  for (auto& entry : by_mlid) groups.push_back(std::move(entry.second));
  return groups;
}

}  // namespace ftclos
