#include "tables/path_bits.h"

#include <fmt/format.h>

#include <charconv>
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

Result<int> find_ca(const Fabric& fabric, std::string_view key) {
  std::string_view hex = key;
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  uint64_t guid = 0;
  const auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), guid, 16);
  if (!hex.empty() && error == std::errc() && end == hex.data() + hex.size()) {
    const std::unordered_map<uint64_t, PortRef> ports = index_port_guids(fabric);
    if (const auto found = ports.find(guid); found != ports.end() && !fabric.node(found->second.node).is_switch())
      return found->second.node;
  }
  for (int i = 0; i < fabric.size(); ++i)
    if (!fabric.node(i).is_switch() && fabric.node(i).name == key) return i;
  return Status::Error(fmt::format("no CA has the port GUID or name \"{}\"", key));
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
