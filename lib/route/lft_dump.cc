#include "route/lft_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "route/path_bits.h"

namespace ftclos {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// The destination part of a line, after OpenSM's dump_ucast_lfts().
std::string describe_owner(const Fabric& fabric, const LidMap& lids, int lid) {
  const int owner = lids.owner[lid];
  if (owner < 0) return "unknown node and type";
  const Node& node = fabric.node(owner);
  return fmt::format("{} portguid {}: '{}'", node.is_switch() ? "Switch" : "Channel Adapter",
                     format_guid(port_guid(node, node.is_switch() ? 0 : 1)), node.display_name());
}

// Every LID's line with the port left as "000", made once for all switches:
// a switch's block is then a copy per entry and three digits patched in.
struct LineTemplates {
  std::string text;
  std::vector<size_t> start;  // [lid], and one past the last line
  std::vector<size_t> port_at;  // [lid]: offset of the port's three digits in its line

  LineTemplates(const Fabric& fabric, const LidMap& lids) : start(lids.max_lid + 2), port_at(lids.max_lid + 1) {
    auto append = std::back_inserter(text);
    for (int lid = 0; lid <= lids.max_lid; ++lid) {
      start[lid] = text.size();
      fmt::format_to(append, "0x{:04x} ", lid);
      port_at[lid] = text.size() - start[lid];
      fmt::format_to(append, "000 # {}\n", describe_owner(fabric, lids, lid));
    }
    start[lids.max_lid + 1] = text.size();
  }
};

void write_switch(const Fabric& fabric, const LidMap& lids, const LineTemplates& lines, int sw,
                  const std::vector<uint8_t>& lft, std::string& out) {
  const Node& node = fabric.node(sw);
  fmt::format_to(std::back_inserter(out), "Unicast lids [0-{}] of switch Lid {} guid {} ('{}'):\n", lids.max_lid,
                 lids.base[sw], format_guid(node.guid), node.display_name());
  const int last = std::min(lids.max_lid, static_cast<int>(lft.size()) - 1);
  // Room for every line up front, so the copies below never reallocate.
  const size_t at = out.size();
  out.resize(at + lines.start[last + 1] - lines.start[0]);
  char* write = out.data() + at;
  for (int lid = 0; lid <= last; ++lid) {
    const int port = lft[lid];
    if (port > node.num_ports) continue;  // kNoPath
    const size_t length = lines.start[lid + 1] - lines.start[lid];
    std::memcpy(write, lines.text.data() + lines.start[lid], length);
    char* digits = write + lines.port_at[lid];  // ports are at most 254: always three digits
    digits[0] = static_cast<char>('0' + port / 100);
    digits[1] = static_cast<char>('0' + port / 10 % 10);
    digits[2] = static_cast<char>('0' + port % 10);
    write += length;
  }
  out.resize(write - out.data());
  fmt::format_to(std::back_inserter(out), "{} lids dumped\n", lids.max_lid);
}

}  // namespace

bool write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, const TextSink& sink) {
  std::vector<int> switches;
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch()) switches.push_back(i);
  std::ranges::stable_sort(switches, {}, [&](int i) { return fabric.node(i).guid; });
  const LineTemplates lines(fabric, lids);
  std::string out;
  for (int sw : switches) {
    write_switch(fabric, lids, lines, sw, lfts.port[sw], out);
    if (out.size() < kFlushBytes) continue;
    if (!sink(out)) return false;
    out.clear();
  }
  return out.empty() || sink(out);
}

std::string write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts) {
  std::string text;
  write_lft_dump(fabric, lids, lfts, [&](std::string_view chunk) {
    text += chunk;
    return true;
  });
  return text;
}

}  // namespace ftclos
