#include "audit/sl_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "audit/text_lines.h"

namespace ftclos {
namespace {

constexpr int kSls = 16;
constexpr std::string_view kMagic = "ftclos-sl 1";

}  // namespace

bool write_sl_file(const LidMap& lids, const std::vector<uint8_t>& dest_sl,
                   const std::vector<SlException>& exceptions, const TextSink& sink) {
  if (!sink(fmt::format("# SL of each (source LID, destination LID); LIDs not named: SL 0\n{}\n", kMagic)))
    return false;
  std::string chunk;
  auto flush = [&](bool force) {
    if (!force && chunk.size() < (64 << 10)) return true;
    const bool ok = sink(chunk);
    chunk.clear();
    return ok;
  };
  const int count = static_cast<int>(dest_sl.size());
  for (int lid = 1; lid < count;) {
    int end = lid;
    while (end + 1 < count && dest_sl[end + 1] == dest_sl[lid]) ++end;
    if (dest_sl[lid] != 0)
      chunk += lid == end ? fmt::format("dlid {:#06x} {}\n", lid, dest_sl[lid])
                          : fmt::format("dlid {:#06x}-{:#06x} {}\n", lid, end, dest_sl[lid]);
    lid = end + 1;
    if (!flush(false)) return false;
  }
  for (const SlException& pair : exceptions) {
    chunk += fmt::format("pair {:#06x} {:#06x} {}\n", lids.base[pair.source], pair.lid, pair.sl);
    if (!flush(false)) return false;
  }
  return flush(true);
}

Result<PathSls> parse_sl_file(const Fabric& fabric, const LidMap& lids, const TextFile& file) {
  PathSls out;
  out.dest_sl.assign(lids.max_lid + 1, 0);
  std::vector<int> given_at(lids.max_lid + 1, 0);
  std::map<std::pair<int, int>, std::pair<uint8_t, int>> pairs;  // (source, LID) -> SL, line
  text::Lines lines(file);
  std::string_view line;
  bool header = false;
  while (lines.next(line)) {
    const int number = lines.number();
    auto fail = [&](const std::string& what) { return Status::Error(fmt::format("{}:{}: {}", file.name, number, what)); };
    line = text::trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (!header) {
      if (line != kMagic) return fail(fmt::format("expected \"{}\" (an ftclos SL file)", kMagic));
      header = true;
      continue;
    }
    auto lid_in_range = [&](std::string_view token, int& lid) -> std::string {
      if (!text::parse_number(token, lid) || lid < 1)
        return fmt::format("expected a LID, got \"{}\"", excerpt(token));
      if (lid > lids.max_lid) return fmt::format("LID {:#x} is above the tables' highest LID {:#x}", lid, lids.max_lid);
      return "";
    };
    const std::string_view kind = text::take_token(line);
    if (kind == "dlid") {
      std::string_view range = text::take_token(line);
      const std::string_view sl_text = text::take_token(line);
      const size_t dash = range.find('-');
      int first = 0, last = 0, sl = 0;
      if (std::string error = lid_in_range(range.substr(0, dash), first); !error.empty()) return fail(error);
      last = first;
      if (dash != std::string_view::npos)
        if (std::string error = lid_in_range(range.substr(dash + 1), last); !error.empty()) return fail(error);
      if (last < first) return fail(fmt::format("LID range {} runs backwards", range));
      if (!text::parse_number(sl_text, sl) || sl >= kSls || !text::trim(line).empty())
        return fail("expected \"dlid LID[-LID] SL\" with SL 0..15");
      for (int lid = first; lid <= last; ++lid) {
        if (given_at[lid] != 0 && out.dest_sl[lid] != sl)
          return fail(fmt::format("LID {:#x} was given SL {} at line {}", lid, out.dest_sl[lid], given_at[lid]));
        out.dest_sl[lid] = static_cast<uint8_t>(sl);
        given_at[lid] = number;
      }
    } else if (kind == "pair") {
      const std::string_view source_text = text::take_token(line), lid_text = text::take_token(line),
                             sl_text = text::take_token(line);
      int slid = 0, dlid = 0, sl = 0;
      if (std::string error = lid_in_range(source_text, slid); !error.empty()) return fail(error);
      if (std::string error = lid_in_range(lid_text, dlid); !error.empty()) return fail(error);
      if (!text::parse_number(sl_text, sl) || sl >= kSls || !text::trim(line).empty())
        return fail("expected \"pair SLID DLID SL\" with SL 0..15");
      const int source = lids.owner[slid];
      if (source < 0 || fabric.node(source).is_switch())
        return fail(fmt::format("source LID {:#x} is no CA's", slid));
      const auto [it, added] = pairs.insert({{source, dlid}, {static_cast<uint8_t>(sl), number}});
      if (!added && it->second.first != sl)
        return fail(fmt::format("the pair's source CA was given SL {} to LID {:#x} at line {}", it->second.first, dlid,
                                it->second.second));
    } else {
      return fail(fmt::format("expected \"dlid\" or \"pair\", got \"{}\"", excerpt(kind)));
    }
  }
  if (!lines.status().ok()) return lines.status();
  if (!header) return Status::Error(fmt::format("{}: empty; expected \"{}\" first", file.name, kMagic));
  for (const auto& [key, value] : pairs)
    if (value.first != out.dest_sl[key.second]) out.exceptions.push_back({key.second, key.first, value.first});
  std::ranges::sort(out.exceptions);
  return out;
}

}  // namespace ftclos
