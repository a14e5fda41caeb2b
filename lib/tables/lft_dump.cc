#include "tables/lft_dump.h"

#include <endian.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

#include "tables/path_bits.h"

namespace ftclos {
namespace {

constexpr size_t kFlushBytes = 1 << 20;
// Lines up to this long are copied as a fixed-size block (a few vector
// moves instead of a memcpy call sized per line); both buffers have that
// much slack at their ends.
constexpr size_t kFixedCopy = 128;

// The destination part of a line, after OpenSM's dump_ucast_lfts().
std::string describe_owner(const Fabric& fabric, const LidMap& lids, int lid) {
  const int owner = lids.owner[lid];
  if (owner < 0) return "unknown node and type";
  const Node& node = fabric.node(owner);
  return fmt::format("{} portguid {}: '{}'", node.is_switch() ? "Switch" : "Channel Adapter",
                     format_guid(port_guid(node, node.is_switch() ? 0 : 1)), node.display_name());
}

// Every LID's line with the port left as "000", made once for all switches:
// a switch's block is then a copy per entry and the port patched in.
struct LineTemplates {
  struct Line {
    size_t start;
    uint32_t length;
    uint32_t port_at;  // offset of the port's three digits in the line
  };
  std::string text;
  std::vector<Line> lines;  // [lid]
  std::array<std::array<char, 4>, 256> port_text;  // [port]: "ddd " (a space follows the port in every line)

  LineTemplates(const Fabric& fabric, const LidMap& lids) : lines(lids.max_lid + 1) {
    auto append = std::back_inserter(text);
    for (int lid = 0; lid <= lids.max_lid; ++lid) {
      const size_t start = text.size();
      fmt::format_to(append, "0x{:04x} ", lid);
      const size_t port_at = text.size() - start;
      fmt::format_to(append, "000 # {}\n", describe_owner(fabric, lids, lid));
      lines[lid] = {start, static_cast<uint32_t>(text.size() - start), static_cast<uint32_t>(port_at)};
    }
    text.append(kFixedCopy, '\0');
    for (int port = 0; port < 256; ++port)
      port_text[port] = {static_cast<char>('0' + port / 100), static_cast<char>('0' + port / 10 % 10),
                         static_cast<char>('0' + port % 10), ' '};
  }
};

void write_switch(const Fabric& fabric, const LidMap& lids, const LineTemplates& templates, int sw,
                  const std::vector<uint8_t>& lft, std::string& out) {
  const Node& node = fabric.node(sw);
  fmt::format_to(std::back_inserter(out), "Unicast lids [0-{}] of switch Lid {} guid {} ('{}'):\n", lids.max_lid,
                 lids.base[sw], format_guid(node.guid), node.display_name());
  const int last = std::min(lids.max_lid, static_cast<int>(lft.size()) - 1);
  // Room for every line up front, so the copies below never reallocate.
  const size_t at = out.size();
  out.resize(at + templates.text.size());
  char* write = out.data() + at;
  for (int lid = 0; lid <= last; ++lid) {
    const int port = lft[lid];
    if (port > node.num_ports) continue;  // kNoPath
    const LineTemplates::Line& line = templates.lines[lid];
    const char* from = templates.text.data() + line.start;
    if (line.length <= kFixedCopy) {
      std::memcpy(write, from, kFixedCopy);
    } else {
      std::memcpy(write, from, line.length);
    }
    std::memcpy(write + line.port_at, templates.port_text[port].data(), 4);  // ports are at most 254: three digits
    write += line.length;
  }
  out.resize(write - out.data());
  fmt::format_to(std::back_inserter(out), "{} lids dumped\n", lids.max_lid);
}

}  // namespace

bool write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, const TextSink& sink) {
  std::vector<int> switches;
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch()) switches.push_back(i);
  // OpenSM's order: its switch table (sw_guid_tbl, a cl_qmap) is keyed by the
  // GUID in network byte order and compared as a host integer, so on a
  // little-endian host switches come by their byte-reversed GUID.
  std::ranges::stable_sort(switches, {}, [&](int i) { return htobe64(fabric.node(i).guid); });
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
