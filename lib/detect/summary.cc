#include "detect/summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "detect/rails.h"

namespace ftclos {

std::string params_text(const FamilyMatch& family) {
  std::string text;
  for (const FamilyParam& p : family.params)
    text += p.is_shape ? fmt::format("{}{}", text.empty() ? "" : " ", fmt::join(p.values, "x"))
                       : fmt::format("{}{}={}", text.empty() ? "" : " ", p.key, fmt::join(p.values, ","));
  return text;
}

std::string family_summary(const Detection& detection) {
  if (detection.families.empty()) return fmt::format("unknown ({})", detection.unknown_reason);
  const FamilyMatch& family = detection.families.front();
  return fmt::format("{} {}{}", family.name(), params_text(family), detection.degraded() ? " (degraded)" : "");
}

std::string detection_summary(const Fabric& fabric, const Detection& detection) {
  const std::vector<int>& ans = detection.levels.aggregation_nodes;
  std::string out = fmt::format("fabric: {} switches, {} hosts{}, {} switch cables, {} levels\n",
                                fabric.count(NodeType::kSwitch), fabric.count(NodeType::kCa) - ans.size(),
                                ans.empty() ? "" : fmt::format(" and {} SHARP aggregation nodes", ans.size()),
                                fabric.switch_links(), detection.levels.height);
  if (const int rails = named_rails(fabric, detection.levels); rails > 0)
    out += fmt::format("rails: {} (every leaf carries one HCA name of {})\n", rails, rails);
  if (detection.families.empty()) out += "family: unknown: " + detection.unknown_reason + "\n";
  for (const FamilyMatch& family : detection.families)
    out += fmt::format("family: {} {}{}\n", family.name(), params_text(family),
                       family.deviations.empty() ? "" : fmt::format(" (degraded: {} deviations)", family.deviations.size()));
  if (!detection.not_clos_reason.empty()) out += "no levels to route by: " + detection.not_clos_reason + "\n";
  if (detection.find(Family::kAnyFabric)) {
    std::vector<std::string> names;
    for (int x : detection.star.roots) names.push_back(fabric.node(x).display_name());
    if (names.size() > 8) names.resize(8), names.push_back("...");
    out += fmt::format("up*/down* roots: {} ({})\n", fmt::join(names, ", "), detection.star.why);
  }
  out += fmt::format("up/down routable: {}\n", detection.updown_routable ? "yes" : "no");
  if (!detection.management_leaves.empty()) {
    out += fmt::format("management leaves (level 1, apart from the tree's shape): {}\n",
                       detection.management_leaves.size());
    for (int x : detection.management_leaves)
      out += fmt::format("  \"{}\"{}\n", fabric.node(x).display_name(), hosts_on(fabric, x) == 0 ? " (no hosts)" : "");
  }
  if (!detection.management_spines.empty()) {
    out += fmt::format("management spines (level 2, only management leaves below): {}\n",
                       detection.management_spines.size());
    for (int x : detection.management_spines) out += fmt::format("  \"{}\"\n", fabric.node(x).display_name());
  }
  std::vector<int> attached;
  std::ranges::set_difference(detection.levels.io_hosts, ans, std::back_inserter(attached));
  if (!attached.empty()) {
    out += fmt::format("attached hosts (not on the tree's leaves): {}\n", attached.size());
    for (int x : attached)
      out += fmt::format("  \"{}\" on a level-{} switch\n", fabric.node(x).display_name(),
                         attached_level(fabric, detection.levels, x));
  }
  if (!ans.empty()) {
    std::map<int, int> by_level;
    for (int x : ans) ++by_level[attached_level(fabric, detection.levels, x)];
    std::vector<std::string> counts;
    for (const auto& [level, count] : by_level) counts.push_back(fmt::format("{} on level {}", count, level));
    out += fmt::format("aggregation nodes (SHARP, routed, not hosts): {} ({})\n", ans.size(), fmt::join(counts, ", "));
  }
  for (const Deviation& d : detection.deviations()) out += "  " + describe(fabric, d) + "\n";
  if (!detection.slow_by_design.empty()) {
    out += fmt::format("slow by design (a kind of host that all runs slower; no degradation): {} cables\n",
                       detection.slow_by_design.size());
    for (const Deviation& d : detection.slow_by_design) out += "  " + describe(fabric, d) + "\n";
  }
  return out;
}

}  // namespace ftclos
