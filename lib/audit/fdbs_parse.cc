#include "audit/fdbs_parse.h"

#include "audit/text_lines.h"

namespace ftclos {

using text::consume;
using text::parse_number;
using text::take_token;
using text::trim;

std::optional<uint64_t> parse_fdbs_header(std::string_view line) {
  line = trim(line);
  uint64_t guid = 0;
  if (!consume(line, "dump_ucast_routes: Switch ") || !line.starts_with("0x") || !parse_number(trim(line), guid))
    return std::nullopt;
  return guid;
}

bool is_fdbs_column_line(std::string_view line) {
  std::string_view rest = trim(line);
  for (std::string_view word : {"LID", ":", "Port", ":", "Hops", ":", "Optimal"})
    if (take_token(rest) != word) return false;
  return trim(rest).empty();
}

std::optional<FdbsEntry> parse_fdbs_entry(std::string_view line) {
  FdbsEntry entry;
  const std::string_view lid = take_token(line);
  if (!lid.starts_with("0x") || !parse_number(lid, entry.lid) || take_token(line) != ":") return std::nullopt;
  const std::string_view port = take_token(line);
  if (port == "UNREACHABLE" && trim(line).empty()) return entry;
  int number = 0;
  if (!parse_number(port, number) || (!trim(line).empty() && take_token(line) != ":")) return std::nullopt;
  entry.port = number;
  return entry;
}

}  // namespace ftclos
