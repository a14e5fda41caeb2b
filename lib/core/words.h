// Blank-separated words of a line, for the line-oriented formats (IBNL, .topo).
#pragma once

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

namespace ftclos {

/// The words of `line` between blanks (space, tab, carriage return).
inline std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  constexpr std::string_view kBlanks = " \t\r";
  for (size_t start = line.find_first_not_of(kBlanks); start != std::string_view::npos;) {
    const size_t end = std::min(line.find_first_of(kBlanks, start), line.size());
    words.push_back(line.substr(start, end - start));
    start = line.find_first_not_of(kBlanks, end);
  }
  return words;
}

/// `word` whole as a number: decimal, or with base 16 hex after a required "0x".
template <class T>
bool read_number(std::string_view word, T& value, int base = 10) {
  if (base == 16 && !(word.starts_with("0x") || word.starts_with("0X"))) return false;
  if (base == 16) word.remove_prefix(2);
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value, base);
  return error == std::errc() && end == word.data() + word.size();
}

/// Calls `visit(line, number)` for each line of `text` (numbered from 1,
/// without its newline) until it returns a failed Status, which is returned.
template <class Visit>
auto for_each_line(std::string_view text, Visit&& visit) -> decltype(visit(text, 0)) {
  int number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t stop = std::min(text.find('\n', start), text.size());
    auto status = visit(text.substr(start, stop - start), ++number);
    if (!status.ok()) return status;
    start = stop + 1;
  }
  return decltype(visit(text, 0))::Ok();
}

}  // namespace ftclos
