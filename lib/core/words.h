// Blank-separated words of a line, for the line-oriented formats (IBNL, .topo).
#pragma once

#include <algorithm>
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

}  // namespace ftclos
