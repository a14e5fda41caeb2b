#include "report/detect_json.h"

#include "core/aggregation_node.h"
#include "detect/deviation.h"
#include "detect/rails.h"
#include "report/schema_version.h"

namespace ftclos {
namespace {

nlohmann::json params_json(const FamilyMatch& family) {
  nlohmann::json params = nlohmann::json::object();
  for (const FamilyParam& p : family.params)
    params[p.key] = p.is_list ? nlohmann::json(p.values) : nlohmann::json(p.values.front());
  return params;
}

nlohmann::json end_json(const Fabric& fabric, PortRef ref) {
  if (!ref.valid()) return nullptr;
  const Node& node = fabric.node(ref.node);
  return {{"name", node.display_name()}, {"guid", format_guid(node.guid)},
          {"port", ref.port > 0 ? nlohmann::json(ref.port) : nlohmann::json(nullptr)}};
}

nlohmann::json nodes_json(const Fabric& fabric, const Detection& detection, bool switches) {
  nlohmann::json list = nlohmann::json::array();
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (node.is_switch() != switches || is_aggregation_node(node)) continue;
    nlohmann::json coords = nlohmann::json::object();
    for (const FamilyMatch& family : detection.families)
      if (!family.coords[x].empty()) coords[std::string(family.name())] = family.coords[x];
    list.push_back({{"name", node.display_name()}, {"guid", format_guid(node.guid)},
                    {"level", detection.levels.of[x]}, {"coords", coords}});
  }
  return list;
}

// Attached CAs: the ANs when `ans`, the other attached hosts when not.
nlohmann::json attached_json(const Fabric& fabric, const Detection& detection, bool ans) {
  nlohmann::json list = nlohmann::json::array();
  for (int x : detection.levels.io_hosts) {
    if (is_aggregation_node(fabric.node(x)) != ans) continue;
    list.push_back({{"name", fabric.node(x).display_name()}, {"guid", format_guid(fabric.node(x).guid)},
                    {"level", attached_level(fabric, detection.levels, x)}});
  }
  return list;
}

nlohmann::json management_json(const Fabric& fabric, const std::vector<int>& switches) {
  nlohmann::json list = nlohmann::json::array();
  for (int x : switches)
    list.push_back({{"name", fabric.node(x).display_name()}, {"guid", format_guid(fabric.node(x).guid)}});
  return list;
}

}  // namespace

nlohmann::json detection_json(const Fabric& fabric, const Detection& detection) {
  nlohmann::json families = nlohmann::json::array();
  for (const FamilyMatch& family : detection.families) {
    families.push_back({{"name", family.name()}, {"params", params_json(family)},
                        {"deviation_count", family.deviations.size()}});
    if (family.family == Family::kAnyFabric) {
      families.back()["params"]["reason"] = detection.not_clos_reason;
      families.back()["params"]["roots_chosen"] = detection.star.why;
    }
  }
  if (detection.families.empty())
    families.push_back({{"name", "unknown"}, {"params", {{"reason", detection.unknown_reason}}}});
  nlohmann::json deviations = nlohmann::json::array();
  for (const Deviation& d : detection.deviations())
    deviations.push_back({{"kind", kind_name(d.kind)}, {"at", end_json(fabric, d.at)},
                          {"peer", end_json(fabric, d.peer)}, {"detail", d.detail},
                          {"text", describe(fabric, d)}});
  nlohmann::json slow_by_design = nlohmann::json::array();
  for (const Deviation& d : detection.slow_by_design)
    slow_by_design.push_back({{"at", end_json(fabric, d.at)}, {"peer", end_json(fabric, d.peer)}, {"detail", d.detail}});
  nlohmann::json report = {{"families", families},
          {"levels", detection.levels.height},
          {"host_count", fabric.count(NodeType::kCa) - static_cast<int>(detection.levels.aggregation_nodes.size())},
          {"switch_count", fabric.count(NodeType::kSwitch)},
          {"hosts", nodes_json(fabric, detection, false)},
          {"io_hosts", attached_json(fabric, detection, false)},
          {"aggregation_nodes", attached_json(fabric, detection, true)},
          {"management_leaves", management_json(fabric, detection.management_leaves)},
          {"management_spines", management_json(fabric, detection.management_spines)},
          {"rails", named_rails(fabric, detection.levels)},
          {"switches", nodes_json(fabric, detection, true)},
          {"degraded", detection.degraded()},
          {"deviations", deviations},
          {"slow_by_design", slow_by_design},
          {"updown_routable", detection.updown_routable}};
  stamp_report(report, kDetectSchemaVersion);
  return report;
}

}  // namespace ftclos
