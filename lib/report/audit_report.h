// What `ftclos audit` reports, for people (text) and programs (JSON, the
// HTML page): the first set of tables in full, every set side by side, the
// traffic patterns on each. The audit itself is audit/audit.h and
// traffic/pattern_load.h; this is how its results are laid out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "audit/audit.h"
#include "audit/lid_balance.h"
#include "audit/mcast_check.h"
#include "audit/worst_case.h"
#include "core/fabric.h"
#include "detect/detect.h"
#include "report/compare.h"
#include "traffic/pattern_load.h"

namespace ftclos {

/// One set of tables and what the audit found on it.
struct AuditedSet {
  std::string label;   // what comparisons call it, distinct among the sets
  std::string origin;  // where the tables came from: files, or a scheme and its LMC
  int lmc = 0;
  int max_lid = 0;
  std::string offsets;  // describe(OffsetChoice)
  long unknown_lids = 0;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  // what a scheme decided and why: printed as notes, not warnings
  Correctness correctness;
  Contention contention;
  LidBalance lid_balance;  // check_lft_balance's view, to compare with the worst case
  std::optional<ConsumerFigures> consumers;  // LMC > 0 only
  std::optional<McastCheck> multicast;  // when multicast tables were given (their credit loops are in correctness)
  std::vector<PatternStats> patterns;  // the same patterns in the same order for every set
};

/// "offset 0 X, path bits Y, all offsets Z": the three consumers' worst cases.
std::string consumers_line(const ConsumerFigures& figures);

/// "fabric: FAMILY; N CAs, M switches\n".
std::string audit_fabric_line(const Fabric& fabric, const Detection& detection);

/// The first set in full: correctness, worst case, witness, oblivious ratio,
/// SD pairs per channel by level and direction.
std::string audit_summary(const Fabric& fabric, const Detection& detection, const AuditedSet& set);

/// Every set but the first (when it is the primary one), then the table of all.
std::string comparison_summary(const Detection& detection, const std::vector<AuditedSet>& sets, bool has_primary);

/// The pattern table over every set; empty without patterns.
std::string pattern_summary(const Detection& detection, const std::vector<AuditedSet>& sets);

/// Each set as a comparison shows it.
std::vector<ComparedSet> compared_sets(const Detection& detection, const std::vector<AuditedSet>& sets);

/// `ftclos audit --json`: the primary set in full (or the fabric alone), and
/// a `compare` list when there are more sets.
nlohmann::json audit_json(const Fabric& fabric, const Detection& detection, const std::string& topology,
                          const std::vector<AuditedSet>& sets, bool has_primary);

/// `ftclos audit --html`: the primary set in detail when there is one, every
/// set side by side when there are several.
std::string audit_page(const Fabric& fabric, const Detection& detection, const std::string& title,
                       const std::vector<AuditedSet>& sets, bool has_primary);

}  // namespace ftclos
