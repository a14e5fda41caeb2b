#include "tables/path_bits.h"

#include <fmt/format.h>

#include <iterator>

namespace ftclos {

std::unordered_map<uint64_t, PortRef> index_port_guids(const Fabric& fabric) {
  std::unordered_map<uint64_t, PortRef> index;
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    if (node.is_switch())
      index.emplace(port_guid(node, 0), PortRef{i, 0});
    else
      for (int p = 1; p <= node.num_ports; ++p) index.emplace(port_guid(node, p), PortRef{i, p});
  }
  return index;
}

bool write_path_bits(const Fabric& fabric, const Routing& routing, const TextSink& sink) {
  constexpr size_t kFlushBytes = 1 << 20;
  std::string out;
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    if (node.is_switch() || node.num_ports < 1) continue;
    fmt::format_to(std::back_inserter(out), "{} {}\n", format_guid(port_guid(node, 1)), routing.path_bits[i]);
    if (out.size() < kFlushBytes) continue;
    if (!sink(out)) return false;
    out.clear();
  }
  return out.empty() || sink(out);
}

std::string write_path_bits(const Fabric& fabric, const Routing& routing) {
  std::string text;
  write_path_bits(fabric, routing, [&](std::string_view chunk) {
    text += chunk;
    return true;
  });
  return text;
}

}  // namespace ftclos
