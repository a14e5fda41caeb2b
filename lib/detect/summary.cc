#include "detect/summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

namespace ftclos {

std::string params_text(const FamilyMatch& family) {
  std::string text;
  for (const FamilyParam& p : family.params)
    text += fmt::format("{}{}={}", text.empty() ? "" : " ", p.key, fmt::join(p.values, ","));
  return text;
}

std::string family_summary(const Detection& detection) {
  if (detection.families.empty()) return fmt::format("unknown ({})", detection.unknown_reason);
  const FamilyMatch& family = detection.families.front();
  return fmt::format("{} {}{}", family.name(), params_text(family), detection.degraded() ? " (degraded)" : "");
}

std::string detection_summary(const Fabric& fabric, const Detection& detection) {
  std::string out = fmt::format("fabric: {} switches, {} hosts, {} switch cables, {} levels\n",
                                fabric.count(NodeType::kSwitch), fabric.count(NodeType::kCa), fabric.switch_links(),
                                detection.levels.height);
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
  if (!detection.levels.io_hosts.empty()) {
    out += fmt::format("attached hosts (not on leaves): {}\n", detection.levels.io_hosts.size());
    for (int x : detection.levels.io_hosts)
      out += fmt::format("  \"{}\" on a level-{} switch\n", fabric.node(x).display_name(),
                         attached_level(fabric, detection.levels, x));
  }
  for (const Deviation& d : detection.deviations()) out += "  " + describe(fabric, d) + "\n";
  return out;
}

}  // namespace ftclos
