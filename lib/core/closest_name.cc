#include "core/closest_name.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ftclos {
namespace {

int edit_distance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int substitute = diagonal + (a[i - 1] != b[j - 1]);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view closest_name(std::string_view name, std::span<const std::string_view> known, int max_distance) {
  std::string_view closest;
  int closest_distance = max_distance + 1;
  for (std::string_view candidate : known)
    if (const int distance = edit_distance(name, candidate); distance < closest_distance) {
      closest = candidate;
      closest_distance = distance;
    }
  return closest;
}

}  // namespace ftclos
