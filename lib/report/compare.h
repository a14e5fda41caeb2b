// Several sets of forwarding tables for one fabric side by side (`ftclos
// audit --compare FILE... --schemes S,..`): OpenSM's engines next to ours,
// or one cluster's tables before and after a change. Each set is audited on
// its own (audit.h, pattern_load.h); this is how the sets are named and how
// their results are laid out for people and for programs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "audit/audit.h"
#include "traffic/pattern_load.h"

namespace ftclos {

/// One audited set of tables, as a comparison shows it.
struct ComparedSet {
  std::string label;   // distinct among the sets compared
  std::string origin;  // where the tables came from: files, or the scheme and its LMC
  int lmc = 0;
  std::string offsets;  // describe(OffsetChoice)
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
  Correctness correctness;
  double worst_case = 0;                  // Contention::worst_case
  bool exact = true;                      // Contention::exact
  std::optional<double> oblivious_ratio;  // the worst case, where it is the ratio (full fat-trees)
  std::vector<PatternStats> patterns;     // the same patterns in the same order for every set
};

/// Labels for LFT files: each file's name, with as many of its directories
/// as it takes to tell it from the other files ("run1/opensm-lfts.dump").
/// The same path given twice gets the same label (see distinct_labels).
std::vector<std::string> file_labels(const std::vector<std::string>& paths);

/// `labels` with each repeat made distinct by " (2)", " (3)", ...
std::vector<std::string> distinct_labels(std::vector<std::string> labels);

/// The text table: one row per set with its unreachable pairs, loops, credit
/// loops and worst-case contention, then a column per pattern with the mean
/// ratio and mean MLOAD.
std::string comparison_table(const std::vector<ComparedSet>& sets);

/// The `compare` list of `ftclos audit --json`: one object per set.
nlohmann::json comparison_json(const std::vector<ComparedSet>& sets);

/// Pattern results as the audit's JSON lists them (`patterns`, also inside
/// each `compare` entry).
nlohmann::json patterns_json(const std::vector<PatternStats>& patterns);

}  // namespace ftclos
