#include "audit/sl2vl_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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

namespace {

using Row = Sl2VlTables::Row;

constexpr char kExpected[] =
    "expected \"# SL2VL table: Lid LID\" or \"ports: in I, out O: | VL|...\" (smpquery), or \"Switch GUID, base "
    "LID LID, ...\" or \"IN OUT : VL...\" (opensm-sl2vl.dump)";

// After "ports: in ": "I, out O: | VL| VL|...| VL|" (smpquery). Returns why not, or "".
std::string read_smpquery_row(std::string_view line, int& in, int& out, Row& row) {
  const size_t comma = line.find(", out ");
  const size_t colon = line.find(':');
  if (comma == std::string_view::npos || colon == std::string_view::npos || colon < comma ||
      !text::parse_number(text::trim(line.substr(0, comma)), in) ||
      !text::parse_number(text::trim(line.substr(comma + 6, colon - comma - 6)), out))
    return "expected \"ports: in I, out O: | VL|...\"";
  std::string_view cells = text::trim(line.substr(colon + 1));
  for (int sl = 0; sl < 16; ++sl) {
    if (!text::consume(cells, "|") || cells.empty()) return "expected 16 VLs, each after a '|'";
    const size_t end = std::min(cells.find('|'), cells.size());
    int vl = 0;
    if (!text::parse_number(text::trim(cells.substr(0, end)), vl) || vl > 15)
      return fmt::format("SL {}: expected a VL 0..15", sl);
    row[sl] = static_cast<uint8_t>(vl);
    cells.remove_prefix(end);
  }
  return cells == "|" ? "" : "expected 16 VLs, the last followed by '|'";
}

// "IN OUT : VL VL ... VL" (opensm-sl2vl.dump). Returns why not, or "".
std::string read_dump_row(std::string_view line, int& in, int& out, Row& row) {
  if (!text::parse_number(text::take_token(line), in) || !text::parse_number(text::take_token(line), out) ||
      text::take_token(line) != ":")
    return kExpected;
  for (int sl = 0; sl < 16; ++sl) {
    const std::string_view token = text::take_token(line);
    int vl = 0;
    if (token.empty()) return "expected 16 VLs";
    if (!text::parse_number(token, vl) || vl > 15) return fmt::format("SL {}: expected a VL 0..15", sl);
    row[sl] = static_cast<uint8_t>(vl);
  }
  return text::trim(line).empty() ? "" : "expected 16 VLs, then the end of the line";
}

// The LID a table's header names, after its start: "LID" (smpquery's "#
// SL2VL table: Lid ") or "GUID, base LID LID, "NAME"" (the dump's "Switch
// " or "Channel Adapter "); -1 when it does not parse.
int header_lid(std::string_view rest, bool dump) {
  int lid = -1;
  if (!dump) return text::parse_number(text::trim(rest), lid) ? lid : -1;
  const size_t at = rest.find(", base LID ");
  if (at == std::string_view::npos) return -1;
  rest.remove_prefix(at + 11);
  return text::parse_number(rest.substr(0, std::min(rest.find(','), rest.size())), lid) ? lid : -1;
}

}  // namespace

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
    const bool smpquery_header = text::consume(line, "# SL2VL table: Lid ");
    const bool dump_header = !smpquery_header && (text::consume(line, "Switch ") ||
                                                  text::consume(line, "Channel Adapter ") || text::consume(line, "Router "));
    if (smpquery_header || dump_header) {
      const int lid = header_lid(line, dump_header);
      if (lid < 0) return fail(kExpected);
      if (lid < 1 || lid > lids.max_lid || lids.owner[lid] < 0)
        return fail(fmt::format("LID {} is no node's in the tables", lid));
      node = fabric.node(lids.owner[lid]).is_switch() ? lids.owner[lid] : -2;
      continue;
    }
    if (line.starts_with('#')) continue;
    const bool smpquery_row = text::consume(line, "ports: in ");
    if (node == -1 && (smpquery_row || std::isdigit(static_cast<unsigned char>(line.front()))))
      return fail("a table row before any table's header");
    int in = 0, out = 0;
    Row row{};
    const std::string why = smpquery_row ? read_smpquery_row(line, in, out, row) : read_dump_row(line, in, out, row);
    if (!why.empty()) return fail(why);
    if (node == -2) continue;
    const int ports = fabric.node(node).num_ports;
    if (in > ports || out > ports)
      return fail(fmt::format("\"{}\" has {} ports", fabric.node(node).display_name(), ports));
    if (tables.find(node, in, out) != nullptr)
      return fail(fmt::format("in port {}, out port {} of \"{}\" given twice", in, out, fabric.node(node).display_name()));
    tables.set(node, in, out, row);
  }
  if (!lines.status().ok()) return lines.status();
  return tables;
}

}  // namespace ftclos
