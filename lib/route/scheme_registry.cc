// Names to scheme factories: one table, looked up by make_scheme.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "route/routing.h"
#include "route/schemes.h"

namespace ftclos {
namespace {

struct SchemeEntry {
  std::string_view name;
  std::unique_ptr<Scheme> (*make)();
};

constexpr SchemeEntry kSchemes[] = {
    {"auto", make_auto_scheme},
    {"dmodk", make_dmodk_scheme},
    {"nonblocking", make_nonblocking_scheme},
    {"osrm", make_osrm_scheme},
    {"mlid", make_mlid_scheme},
    {"multipath", make_multipath_scheme},
    {"mikant", make_mikant_scheme},
    {"updown", make_updown_scheme},
};

// Levenshtein distance, for "did you mean" on a mistyped name.
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

Result<std::unique_ptr<Scheme>> make_scheme(std::string_view name) {
  for (const SchemeEntry& entry : kSchemes)
    if (entry.name == name) return entry.make();
  std::string message = fmt::format("unknown scheme \"{}\"", name);
  std::string_view closest;
  int closest_distance = 3;  // suggest only names within edit distance 2
  for (const SchemeEntry& entry : kSchemes)
    if (const int distance = edit_distance(name, entry.name); distance < closest_distance) {
      closest = entry.name;
      closest_distance = distance;
    }
  message += closest.empty() ? "." : fmt::format("; did you mean \"{}\"?", closest);
  return Status::Error(fmt::format("{} Known schemes: {}", message, fmt::join(scheme_names(), ", ")));
}

std::vector<std::string_view> scheme_names() {
  std::vector<std::string_view> names;
  for (const SchemeEntry& entry : kSchemes) names.push_back(entry.name);
  return names;
}

}  // namespace ftclos
