#include "report/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

namespace ftclos {
namespace {

// A path's non-empty components, the file name first.
std::vector<std::string_view> components_from_last(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    const size_t slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    if (!name.empty()) out.push_back(name);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  }
  return out;
}

// The last `count` components, joined as a path.
std::string last_components(const std::vector<std::string_view>& from_last, size_t count) {
  std::string out;
  for (size_t i = count; i-- > 0;) {
    out += from_last[i];
    if (i > 0) out += '/';
  }
  return out;
}

std::string worst_case_text(const ComparedSet& set) {
  return fmt::format("{:g}{}", set.worst_case, set.exact ? "" : " (bound)");
}

std::string pattern_cell(const PatternStats& stats) {
  return fmt::format("{:.3f} / {:.2f}", stats.ratio.mean, stats.mload.mean);
}

}  // namespace

std::vector<std::string> file_labels(const std::vector<std::string>& paths) {
  std::vector<std::vector<std::string_view>> components;
  for (const std::string& path : paths) components.push_back(components_from_last(path));
  std::vector<std::string> labels;
  for (size_t i = 0; i < paths.size(); ++i) {
    // One component more than this path shares, from the end, with any other.
    size_t needed = 1;
    for (size_t j = 0; j < paths.size(); ++j) {
      if (paths[j] == paths[i]) continue;
      size_t shared = 0;
      while (shared < components[i].size() && shared < components[j].size() &&
             components[i][shared] == components[j][shared])
        ++shared;
      needed = std::max(needed, shared + 1);
    }
    labels.push_back(needed > components[i].size() ? paths[i] : last_components(components[i], needed));
  }
  return labels;
}

std::vector<std::string> distinct_labels(std::vector<std::string> labels) {
  const std::set<std::string> given(labels.begin(), labels.end());
  std::set<std::string> taken;
  for (std::string& label : labels) {
    if (taken.contains(label)) {
      int n = 2;
      // Also clear of labels further down the list, which keep their names.
      while (taken.contains(fmt::format("{} ({})", label, n)) || given.contains(fmt::format("{} ({})", label, n))) ++n;
      label = fmt::format("{} ({})", label, n);
    }
    taken.insert(label);
  }
  return labels;
}

std::string comparison_table(const std::vector<ComparedSet>& sets) {
  if (sets.empty()) return "";
  size_t label_width = 3;
  for (const ComparedSet& set : sets) label_width = std::max(label_width, set.label.size());
  const std::vector<PatternStats>& patterns = sets.front().patterns;
  std::vector<size_t> widths;
  for (size_t p = 0; p < patterns.size(); ++p) {
    size_t width = patterns[p].pattern.size();
    for (const ComparedSet& set : sets)
      if (p < set.patterns.size()) width = std::max(width, pattern_cell(set.patterns[p]).size());
    widths.push_back(width);
  }
  constexpr const char* kFixed = "{:<{}}  {:>11}  {:>5}  {:>12}  {:>11}";
  std::string out = fmt::format(kFixed, "set", label_width, "unreachable", "loops", "credit loops", "worst case");
  for (size_t p = 0; p < patterns.size(); ++p) out += fmt::format("  {:>{}}", patterns[p].pattern, widths[p]);
  out += '\n';
  for (const ComparedSet& set : sets) {
    const Correctness& c = set.correctness;
    out += fmt::format(kFixed, set.label, label_width, c.unreachable, c.loops, c.credit_loops, worst_case_text(set));
    for (size_t p = 0; p < patterns.size(); ++p)
      out += fmt::format("  {:>{}}", p < set.patterns.size() ? pattern_cell(set.patterns[p]) : "-", widths[p]);
    out += '\n';
  }
  if (!patterns.empty()) out += "(pattern columns: mean ratio MLOAD/OPTU / mean MLOAD)\n";
  return out;
}

nlohmann::json patterns_json(const std::vector<PatternStats>& patterns) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PatternStats& p : patterns)
    rows.push_back({{"pattern", p.pattern}, {"ratio_mean", p.ratio.mean}, {"ratio_min", p.ratio.min},
                    {"ratio_max", p.ratio.max}, {"ratio_sd", p.ratio.stddev}, {"mload", p.mload.mean},
                    {"optu", p.optu.mean}, {"flow_bandwidth", p.flow_bandwidth.mean},
                    {"optu_is_baseload", p.basis == OptuBasis::kBaseload}, {"undelivered", p.undelivered}});
  return rows;
}

nlohmann::json comparison_json(const std::vector<ComparedSet>& sets) {
  nlohmann::json list = nlohmann::json::array();
  for (const ComparedSet& set : sets) {
    const Correctness& c = set.correctness;
    list.push_back({
        {"label", set.label},
        {"tables", set.origin},
        {"lmc", set.lmc},
        {"offsets", set.offsets},
        {"warnings", set.warnings},
        {"pairs", c.pairs},
        {"unreachable", c.unreachable},
        {"loops", c.loops},
        {"credit_loops", c.credit_loops},
        {"updown_violations", c.updown_violations},
        {"non_minimal", c.non_minimal},
        {"worst_case_contention", set.worst_case},
        {"exact", set.exact},
        {"nonblocking", set.worst_case <= 1 + 1e-9},
        {"oblivious_ratio", set.oblivious_ratio ? nlohmann::json(*set.oblivious_ratio) : nlohmann::json(nullptr)},
        {"patterns", patterns_json(set.patterns)},
    });
  }
  return list;
}

}  // namespace ftclos
