// The registry of experiments.h and its table printer; the experiments
// themselves are in experiments_yuan.cc, experiments_drb.cc and
// experiments_topology.cc.
#include "research/experiments.h"

#include <fmt/format.h>

#include <algorithm>

#include "research/experiment_parts.h"

namespace ftclos {
namespace {

using namespace experiment_parts;

struct Entry {
  ExperimentInfo info;
  Status (*run)(ExperimentReport&, const ExperimentOptions&);
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"oblivious-table1", "worst-case ratios of OMRMN/OSRM2/OSRM3/MLID/WSR (Yuan et al. Table I)"}, oblivious_table1},
      {{"oblivious-table2", "regular patterns on FT(32,2) (Table II)"}, oblivious_table2},
      {{"oblivious-table3", "regular patterns on FT(8,3) and FT(16,3) (Table III)"}, oblivious_table3},
      {{"clustered", "clustered traffic (Figs. 12-13)"}, clustered},
      {{"hotspot", "four hot spots (Figs. 14-15)"}, hotspot},
      {{"drb-fig4", "DRB k-permutation flows (DRB Fig. 4 / Table 1)"}, drb_fig4},
      {{"mikant-table1", "MiKANT topology properties (Li and Chu Table I)"}, mikant_table1},
      {{"rfc-ancestors", "common ancestors around the Theorem 4.2 threshold"}, rfc_ancestors},
      {{"rfc-disconnect", "links to remove to disconnect / lose up/down (Camarero Table 3)"}, rfc_disconnect},
  };
  return list;
}

}  // namespace

const std::vector<ExperimentInfo>& experiment_list() {
  static const std::vector<ExperimentInfo> list = [] {
    std::vector<ExperimentInfo> out;
    for (const Entry& entry : entries()) out.push_back(entry.info);
    return out;
  }();
  return list;
}

Result<ExperimentReport> run_experiment(std::string_view name, const ExperimentOptions& options) {
  for (const Entry& entry : entries()) {
    if (entry.info.name != name) continue;
    ExperimentReport report;
    if (Status status = entry.run(report, options); !status.ok()) return status;
    return report;
  }
  std::string known;
  for (const Entry& entry : entries()) known += (known.empty() ? "" : ", ") + std::string(entry.info.name);
  return Status::Error(fmt::format("unknown experiment \"{}\"; known: {}", name, known));
}

std::string format_table(const ExperimentTable& table) {
  std::vector<size_t> width(table.header.size(), 0);
  for (size_t i = 0; i < table.header.size(); ++i) width[i] = table.header[i].size();
  for (const auto& row : table.rows)
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out = table.title + "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t i = 0; i < cells.size() && i < width.size(); ++i)
      text += fmt::format("{}{:<{}}", i ? "  " : "", cells[i], width[i]);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  line(table.header);
  for (const auto& row : table.rows) line(row);
  for (const std::string& note : table.notes) out += "  * " + note + "\n";
  return out;
}

}  // namespace ftclos
