#include "audit/sl2vl_file.h"

#include <fmt/format.h>

#include <string>

#include "audit/text_lines.h"

namespace ftclos {

void Sl2VlTables::set(int node, int in, int out, const Row& row) {
  if (static_cast<int>(rows_.size()) <= node) rows_.resize(node + 1);
  auto& by_out = rows_[node];
  if (static_cast<int>(by_out.size()) <= out) by_out.resize(out + 1);
  auto& by_in = by_out[out];
  if (static_cast<int>(by_in.size()) <= in) by_in.resize(in + 1);
  by_in[in] = row;
}

const Sl2VlTables::Row* Sl2VlTables::find(int node, int in, int out) const {
  if (node < 0 || node >= static_cast<int>(rows_.size())) return nullptr;
  const auto& by_out = rows_[node];
  if (out < 0 || out >= static_cast<int>(by_out.size())) return nullptr;
  const auto& by_in = by_out[out];
  if (in < 0 || in >= static_cast<int>(by_in.size()) || !by_in[in]) return nullptr;
  return &*by_in[in];
}

Result<Sl2VlTables> parse_sl2vl_file(const Fabric& fabric, const LidMap& lids, const TextFile& file) {
  Sl2VlTables tables;
  text::Lines lines(file);
  std::string_view line;
  int node = -1;  // the switch of the last header; -1 before any, -2 for a CA's table
  while (lines.next(line)) {
    const int number = lines.number();
    auto fail = [&](const std::string& what) { return Status::Error(fmt::format("{}:{}: {}", file.name, number, what)); };
    line = text::trim(line);
    if (line.empty()) continue;
    if (text::consume(line, "# SL2VL table: Lid ")) {
      int lid = 0;
      if (!text::parse_number(text::trim(line), lid)) return fail("expected \"# SL2VL table: Lid LID\"");
      if (lid < 1 || lid > lids.max_lid || lids.owner[lid] < 0)
        return fail(fmt::format("LID {} is no node's in the tables", lid));
      node = fabric.node(lids.owner[lid]).is_switch() ? lids.owner[lid] : -2;
      continue;
    }
    if (line.starts_with('#')) continue;
    if (!text::consume(line, "ports: in ")) return fail("expected \"# SL2VL table: Lid LID\" or \"ports: in I, out O: | VL|...\"");
    if (node == -1) return fail("a table row before any \"# SL2VL table: Lid LID\" header");
    const size_t comma = line.find(", out ");
    const size_t colon = line.find(':');
    int in = 0, out = 0;
    if (comma == std::string_view::npos || colon == std::string_view::npos || colon < comma ||
        !text::parse_number(text::trim(line.substr(0, comma)), in) ||
        !text::parse_number(text::trim(line.substr(comma + 6, colon - comma - 6)), out))
      return fail("expected \"ports: in I, out O: | VL|...\"");
    std::string_view cells = text::trim(line.substr(colon + 1));
    Sl2VlTables::Row row{};
    for (int sl = 0; sl < 16; ++sl) {
      if (!text::consume(cells, "|") || cells.empty()) return fail("expected 16 VLs, each after a '|'");
      const size_t end = std::min(cells.find('|'), cells.size());
      int vl = 0;
      if (!text::parse_number(text::trim(cells.substr(0, end)), vl) || vl > 15)
        return fail(fmt::format("SL {}: expected a VL 0..15", sl));
      row[sl] = static_cast<uint8_t>(vl);
      cells.remove_prefix(end);
    }
    if (cells != "|") return fail("expected 16 VLs, the last followed by '|'");
    if (node == -2) continue;
    const int ports = fabric.node(node).num_ports;
    if (in > ports || out > ports)
      return fail(fmt::format("\"{}\" has {} ports", fabric.node(node).display_name(), ports));
    if (tables.find(node, in, out) != nullptr)
      return fail(fmt::format("in port {}, out port {} of \"{}\" given twice", in, out, fabric.node(node).display_name()));
    tables.set(node, in, out, row);
  }
  return tables;
}

}  // namespace ftclos
