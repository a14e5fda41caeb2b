// The grammar of OpenSM's opensm.fdbs (osm_dump.c, dump_ucast_routes; the
// layout of ibdiagnet's .fdbs too): per switch
//
//   dump_ucast_routes: Switch 0xf7c1000000000001
//   LID    : Port : Hops : Optimal
//   0x0001 : 001  : 01   : yes
//   0x0005 : UNREACHABLE
//   0x0006 : 003  : HOPS UNKNOWN
//
// for every LID 1..the switch's top. No entry names whose LID it is: the
// reader (audit/lft_parse.h) takes the LIDs from the guid2lid file or the
// topology's own.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ftclos {

struct FdbsEntry {
  int lid = 0;
  std::optional<int> port;  // none: UNREACHABLE
};

/// The switch GUID of a "dump_ucast_routes: Switch 0x..." line.
std::optional<uint64_t> parse_fdbs_header(std::string_view line);
/// Whether `line` is the "LID : Port : Hops : Optimal" column line.
bool is_fdbs_column_line(std::string_view line);
/// "0xLLLL : PPP ..." or "0xLLLL : UNREACHABLE".
std::optional<FdbsEntry> parse_fdbs_entry(std::string_view line);

}  // namespace ftclos
