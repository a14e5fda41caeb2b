// Experiments that regenerate, from scratch, results of our papers and put
// ours next to the paper's numbers with the difference:
//   oblivious-table1  worst-case ratios of OMRMN/OSRM2/OSRM3/MLID/WSR (Yuan et al., Table I)
//   oblivious-table2  regular patterns on FT(32,2) (Table II, ±5%)
//   oblivious-table3  regular patterns on FT(8,3), FT(16,3) (Table III, ±5%)
//   clustered         clustered traffic (Figs. 12-13, claims in the text)
//   hotspot           four hot spots (Figs. 14-15, claims in the text)
//   drb-fig4          DRB k-permutation flows (DRB paper Fig. 4 / Table 1)
//   mikant-table1     MiKANT counts, diameter, average distance (Li and Chu, Table I)
//   rfc-ancestors     common ancestors around the threshold (Camarero et al., Thm. 4.2)
//   rfc-disconnect    links removed until disconnection / up/down loss (Table 3)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace ftclos {

struct ExperimentTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
};

struct ExperimentReport {
  std::vector<ExperimentTable> tables;
  int checks = 0;  // comparisons with an acceptance rule
  int failed = 0;  // of those, the ones outside it
};

struct ExperimentOptions {
  uint64_t seed = 1;
};

struct ExperimentInfo {
  std::string_view name;
  std::string_view what;
};
const std::vector<ExperimentInfo>& experiment_list();

/// Runs one experiment by name; an unknown name fails with the list.
Result<ExperimentReport> run_experiment(std::string_view name, const ExperimentOptions& options);

/// Aligned columns, the title above, the notes below.
std::string format_table(const ExperimentTable& table);

/// Topological properties as Li and Chu's Table I counts them: links include
/// the CA links, distances count the CA links, and the average distance is
/// over ordered pairs of compute nodes, a node's distance to itself included
/// (Theorem 6 divides by 2k^n): average = distance_sum / nodes^2.
struct TopologyCounts {
  long nodes = 0, switches = 0, links = 0;
  int diameter = 0;
  long distance_sum = 0;
};
/// From generate_mikant(k, n) by breadth-first search from every compute node.
Result<TopologyCounts> measure_mikant(int k, int n);
/// Whether `measured` equals the Table I formulas for MiKANT(k, n) exactly
/// (the average distance compared as a fraction); `why` says what differs.
bool matches_mikant_formulas(const TopologyCounts& measured, int k, int n, std::string* why);

/// The DRB flow experiment on FT(ports, levels) for each k: average maximum
/// link load per policy over `runs` runs (threshold < 0: the default).
Result<ExperimentTable> drb_table(int ports, int levels, const std::vector<int>& ks, int runs, int threshold,
                                  uint64_t seed, int* checks = nullptr, int* failed = nullptr);

}  // namespace ftclos
