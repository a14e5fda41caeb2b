#include "detect/family_coords.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ftclos {
namespace {

// Digits at positions hi, hi-1, .., lo (1-based), highest first.
std::vector<int> high_to_low(const std::vector<int>& digits, int hi, int lo) {
  std::vector<int> out;
  for (int i = hi; i >= lo; --i) out.push_back(digits[i - 1]);
  return out;
}

template <class Format>
std::vector<std::string> each_labeled(const Fabric& fabric, const XgftLabels& labels, Format format) {
  std::vector<std::string> coords(fabric.size());
  for (int x = 0; x < fabric.size(); ++x)
    if (!labels.digits[x].empty()) coords[x] = format(x, labels.digits[x]);
  return coords;
}

}  // namespace

std::vector<std::string> ftree_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels) {
  const int n = labels.shape.h;
  return each_labeled(fabric, labels, [&](int x, const std::vector<int>& d) {
    const int l = levels.of[x];
    if (l == 0) return fmt::format("({})", fmt::join(high_to_low(d, n, 1), ","));
    // a-digits highest first, then b-digits from position 2 up.
    std::vector<int> i = high_to_low(d, n, l + 1);
    for (int pos = 2; pos <= l; ++pos) i.push_back(d[pos - 1]);
    return fmt::format("(({}),{})", fmt::join(i, ","), n - l);
  });
}

std::vector<std::string> kary_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels) {
  const int n = labels.shape.h;
  return each_labeled(fabric, labels, [&](int x, const std::vector<int>& d) {
    const int l = levels.of[x];
    if (l == 0) return fmt::format("({})", fmt::join(high_to_low(d, n, 1), ","));
    return fmt::format("<{},{}>", fmt::join(high_to_low(d, n, 2), ","), n - l);
  });
}

std::vector<std::string> clos2_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels) {
  return each_labeled(fabric, labels, [&](int x, const std::vector<int>& d) {
    switch (levels.of[x]) {
      case 0: return fmt::format("({},{})", d[1], d[0]);
      case 1: return fmt::format("leaf {}", d[1]);
      default: return fmt::format("spine {}", d[1]);
    }
  });
}

std::vector<std::string> pgft_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels) {
  const int h = labels.shape.h;
  return each_labeled(fabric, labels, [&](int x, const std::vector<int>& d) {
    return fmt::format("L{}:({})", levels.of[x], fmt::join(high_to_low(d, h, 1), ","));
  });
}

std::vector<std::string> mikant_coords(const Fabric& fabric, const MikantLabels& labels) {
  std::vector<std::string> coords(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) {
    const std::vector<int>& d = labels.digits[x];
    if (d.empty()) continue;
    const std::vector<int> high_first(d.rbegin(), d.rend());
    coords[x] = fabric.node(x).is_switch()
                    ? fmt::format("<{},{},{}>", labels.group[x], labels.stage[x], fmt::join(high_first, ","))
                    : fmt::format("<{},{}>", labels.group[x], fmt::join(high_first, ","));
  }
  return coords;
}

std::vector<std::string> level_coords(const Fabric& fabric, const Levels& levels) {
  std::vector<int> order(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) order[x] = x;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Node& x = fabric.node(a);
    const Node& y = fabric.node(b);
    return std::tie(levels.of[a], x.guid, x.name) < std::tie(levels.of[b], y.guid, y.name);
  });
  std::vector<std::string> coords(fabric.size());
  std::map<int, int> rank;
  for (int x : order) coords[x] = fmt::format("L{}#{}", levels.of[x], rank[levels.of[x]]++);
  return coords;
}

}  // namespace ftclos
