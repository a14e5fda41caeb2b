#include "report/audit_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "detect/summary.h"
#include "report/html_report.h"
#include "report/schema_version.h"

namespace ftclos {
namespace {

// The set's notes (what its scheme decided) before the contention's.
std::vector<std::string> all_notes(const AuditedSet& set) {
  std::vector<std::string> notes = set.notes;
  notes.insert(notes.end(), set.contention.notes.begin(), set.contention.notes.end());
  return notes;
}

bool nonblocking(const Contention& contention) { return contention.worst_case <= 1 + 1e-9; }

// The set bits of a 16-bit mask (SLs, VLs), ascending.
std::vector<int> bits_of(uint16_t mask) {
  std::vector<int> out;
  for (int bit = 0; bit < 16; ++bit)
    if (mask & (1u << bit)) out.push_back(bit);
  return out;
}

// Channels grouped by the level they leave and their direction, with how
// many SD pairs each carries.
struct ChannelGroup {
  int level = 0;
  std::string direction;
  std::map<long, int> channels_by_pairs;
  double max_matching = 0;
};

std::vector<ChannelGroup> group_channels(const Fabric& fabric, const Levels& levels, const Contention& contention) {
  std::map<std::pair<int, std::string>, ChannelGroup> groups;
  for (const LinkLoad& link : contention.links) {
    const std::string direction = direction_name(ftclos::direction(fabric, levels, link.channel));
    ChannelGroup& group = groups[{link.level, direction}];
    group.level = link.level;
    group.direction = direction;
    ++group.channels_by_pairs[link.pairs];
    group.max_matching = std::max(group.max_matching, link.matching);
  }
  std::vector<ChannelGroup> out;
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

// "pairs:channels" for every count, or 8 ranges when there are more counts.
std::string histogram(const std::map<long, int>& channels_by_pairs) {
  std::vector<std::string> buckets;
  if (channels_by_pairs.size() <= 8) {
    for (const auto& [pairs, channels] : channels_by_pairs) buckets.push_back(fmt::format("{}:{}", pairs, channels));
    return fmt::format("{}", fmt::join(buckets, " "));
  }
  const long low = channels_by_pairs.begin()->first, high = channels_by_pairs.rbegin()->first;
  const long width = (high - low) / 8 + 1;
  for (long from = low; from <= high; from += width) {
    int channels = 0;
    for (auto it = channels_by_pairs.lower_bound(from); it != channels_by_pairs.end() && it->first < from + width; ++it)
      channels += it->second;
    if (channels > 0) buckets.push_back(fmt::format("{}-{}:{}", from, from + width - 1, channels));
  }
  return fmt::format("{}", fmt::join(buckets, " "));
}

constexpr size_t kWitnessShown = 10;

std::string tables_line(const AuditedSet& set) {
  return fmt::format("{}; LMC {}, max LID {}; contention offsets: {}", set.origin, set.lmc, set.max_lid, set.offsets);
}

}  // namespace

std::string audit_fabric_line(const Fabric& fabric, const Detection& detection) {
  return fmt::format("fabric: {}; {} CAs, {} switches\n", family_summary(detection), fabric.count(NodeType::kCa),
                     fabric.count(NodeType::kSwitch));
}

std::string consumers_line(const ConsumerFigures& figures) {
  return fmt::format("offset 0 {:g}, path bits {}, all offsets {:g}", figures.offset0,
                     figures.path_bits ? fmt::format("{:g}", *figures.path_bits) : "unknown (--pathbits)",
                     figures.all_offsets);
}

std::string audit_summary(const Fabric& fabric, const Detection& detection, const AuditedSet& tables) {
  const AuditedSet& audit = tables;
  const Correctness& correctness = audit.correctness;
  const Contention& contention = audit.contention;
  std::string text;
  auto out = std::back_inserter(text);
  fmt::format_to(out, "{}tables: {}\n", audit_fabric_line(fabric, detection), tables_line(tables));
  for (const std::string& warning : tables.warnings) fmt::format_to(out, "warning: {}\n", warning);
  for (const std::string& note : tables.notes) fmt::format_to(out, "note: {}\n", note);
  // Reachability and loops cover every LID of every range, whatever offsets contention uses.
  const std::string every_lid =
      audit.lmc > 0 ? fmt::format(" (CA pairs x {} LIDs each: every LID of every range)", 1 << audit.lmc) : "";
  fmt::format_to(out,
                 "pairs: {}{}\nunreachable: {}\nloops: {}\ncredit loops: {}\nup/down violations: {}\nnon-minimal: {}\n",
                 correctness.pairs, every_lid, correctness.unreachable, correctness.loops, correctness.credit_loops,
                 correctness.updown_violations, correctness.non_minimal);
  fmt::format_to(out, "switch pairs: {}, unreachable {} (every switch to every LID, every CA to every switch LID: "
                 "PMA queries and answers)\n", correctness.switch_pairs, correctness.switch_unreachable);
  fmt::format_to(out, "credit loops with switches' own routes: {}\n", correctness.switch_credit_loops);
  fmt::format_to(out, "VLs used: {} (SLs {})", fmt::join(bits_of(correctness.vls_used), ","),
                 fmt::join(bits_of(correctness.sls_used), ","));
  // Switches' own routes (PMA answers) may need SLs the CA pairs do not: the VLs to enable.
  if (const uint16_t beyond = correctness.switch_vls_used & ~correctness.vls_used; beyond != 0)
    fmt::format_to(out, "; with switches' own routes: {} (SLs {})",
                   fmt::join(bits_of(correctness.vls_used | correctness.switch_vls_used), ","),
                   fmt::join(bits_of(correctness.sls_used | correctness.switch_sls_used), ","));
  fmt::format_to(out, "\n");
  if (correctness.disconnected > 0)
    fmt::format_to(out, "disconnected: {} (CA pairs no cable path joins: not routing failures, not in pairs)\n",
                   correctness.disconnected);
  for (const std::string& example : correctness.examples) fmt::format_to(out, "  e.g. {}\n", example);
  if (const std::optional<McastCheck>& m = audit.multicast) {
    fmt::format_to(out, "multicast: {} groups, {} members, {} member pairs, {} unreached, {} looping senders "
                   "(credit loops above count unicast and multicast together)\n",
                   m->groups, m->members, m->pairs, m->unreached, m->looping);
    for (const std::string& example : m->examples) fmt::format_to(out, "  e.g. {}\n", example);
  }
  fmt::format_to(out, "worst-case contention: {:g}{}\n", contention.worst_case, contention.exact ? "" : " (a bound)");
  if (audit.consumers)
    fmt::format_to(out, "worst case by consumer: {} (offset 0: the SA's first PathRecord, rdmacm, default UCX and MPI; "
                   "path bits: UCX_IB_LID_PATH_BITS from the path-bits file; all offsets: multipath)\n",
                   consumers_line(*audit.consumers));
  if (!contention.links.empty()) {
    const Node& sw = fabric.node(contention.worst_link.node);
    fmt::format_to(out, "worst link: \"{}\" port {} ({})\n", sw.display_name(), contention.worst_link.port, format_guid(sw.guid));
  }
  fmt::format_to(out, "LIDs per port: {}\n", lid_balance_line(fabric, audit.lid_balance));
  std::vector<std::string> witness;
  for (size_t i = 0; i < std::min(kWitnessShown, contention.witness.size()); ++i)
    witness.push_back(fmt::format("{} -> {}", fabric.node(contention.witness[i].first).display_name(),
                                  fabric.node(contention.witness[i].second).display_name()));
  fmt::format_to(out, "witness ({} of {} pairs): {}\n", witness.size(), contention.witness.size(), fmt::join(witness, ", "));
  fmt::format_to(out, "nonblocking: {}\n", nonblocking(contention) ? "yes" : "no");
  if (optu_is_baseload(detection))
    fmt::format_to(out, "oblivious ratio: {:g} (full fat-tree: OPTU = baseload, Corollary 1)\n", contention.worst_case);
  else
    fmt::format_to(out, "oblivious ratio: n/a (not a full fat-tree, the optimum is not known)\n");
  fmt::format_to(out, "SD pairs per channel (pairs:channels), by level and direction:\n");
  for (const ChannelGroup& group : group_channels(fabric, detection.levels, contention)) {
    int channels = 0;
    for (const auto& [pairs, count] : group.channels_by_pairs) channels += count;
    fmt::format_to(out, "  level {} {}: {} channels, worst {:g}; {}\n", group.level, group.direction, channels,
               group.max_matching, histogram(group.channels_by_pairs));
  }
  for (const std::string& note : contention.notes) fmt::format_to(out, "note: {}\n", note);
  return text;
}

std::string comparison_summary(const Detection& detection, const std::vector<AuditedSet>& sets, bool has_primary) {
  std::string text = "compared sets:\n";
  auto out = std::back_inserter(text);
  for (size_t i = has_primary ? 1 : 0; i < sets.size(); ++i) {
    fmt::format_to(out, "  {}: {}\n", sets[i].label, tables_line(sets[i]));
    for (const std::string& warning : sets[i].warnings) fmt::format_to(out, "    warning: {}\n", warning);
    for (const std::string& note : sets[i].notes) fmt::format_to(out, "    note: {}\n", note);
  }
  fmt::format_to(out, "comparison:\n{}", comparison_table(compared_sets(detection, sets)));
  return text;
}

std::string pattern_summary(const Detection& detection, const std::vector<AuditedSet>& sets) {
  if (sets.front().patterns.empty()) return "";
  std::string text = fmt::format("traffic patterns ({}):\n{}", optu_basis(detection) == OptuBasis::kBaseload
                                                                   ? "OPTU = baseload, Corollary 1"
                                                                   : "OPTU bounded below by baseload and sub-tree "
                                                                     "cuts; ratios are upper bounds",
                                 pattern_table_header());
  for (size_t p = 0; p < sets.front().patterns.size(); ++p)
    for (const AuditedSet& set : sets) text += pattern_table_row(set.label, set.patterns[p]);
  return text;
}

std::vector<ComparedSet> compared_sets(const Detection& detection, const std::vector<AuditedSet>& sets) {
  std::vector<ComparedSet> compared;
  for (const AuditedSet& set : sets) {
    ComparedSet& out = compared.emplace_back(ComparedSet{set.label, set.origin, set.lmc, set.offsets, set.warnings,
                                                         set.notes, set.correctness, set.contention.worst_case,
                                                         set.contention.exact, {}, set.patterns});
    if (optu_is_baseload(detection)) out.oblivious_ratio = set.contention.worst_case;
  }
  return compared;
}

namespace {

nlohmann::json fabric_json(const std::string& topology, const Detection& detection) {
  return {{"topology", topology}, {"family", family_summary(detection)}, {"full_fat_tree", optu_is_baseload(detection)}};
}

nlohmann::json lid_balance_json(const Fabric& fabric, const LidBalance& balance) {
  nlohmann::json widest = nullptr;
  if (balance.widest >= 0) {
    const Node& sw = fabric.node(balance.widest);
    widest = {{"switch", sw.display_name()}, {"guid", format_guid(sw.guid)}, {"fewest", balance.fewest},
              {"most", balance.most}};
  }
  return {{"switches", balance.switches}, {"unbalanced", balance.unbalanced}, {"widest", widest}};
}

// null at LMC 0, where every consumer sends to the one LID.
nlohmann::json consumers_json(const std::optional<ConsumerFigures>& figures) {
  if (!figures) return nullptr;
  return {{"offset0", figures->offset0},
          {"path_bits", figures->path_bits ? nlohmann::json(*figures->path_bits) : nlohmann::json(nullptr)},
          {"all_offsets", figures->all_offsets}};
}

// The primary set in full.
nlohmann::json primary_json(const Fabric& fabric, const Detection& detection, const std::string& topology,
                            const AuditedSet& tables) {
  using nlohmann::json;
  const AuditedSet& audit = tables;
  const Correctness& correctness = audit.correctness;
  const Contention& contention = audit.contention;
  json out = fabric_json(topology, detection);
  out.update(json{
      {"tables", tables.origin},
      {"lmc", tables.lmc},
      {"offsets", tables.offsets},
      {"unknown_lids", tables.unknown_lids},
      {"warnings", tables.warnings},
      {"pairs", correctness.pairs},
      {"disconnected", correctness.disconnected},
      {"unreachable", correctness.unreachable},
      {"switch_pairs", correctness.switch_pairs},
      {"switch_unreachable", correctness.switch_unreachable},
      {"switch_credit_loops", correctness.switch_credit_loops},
      {"loops", correctness.loops},
      {"credit_loops", correctness.credit_loops},
      {"sls_used", bits_of(correctness.sls_used)},
      {"vls_used", bits_of(correctness.vls_used)},
      {"switch_sls_used", bits_of(correctness.switch_sls_used)},
      {"switch_vls_used", bits_of(correctness.switch_vls_used)},
      {"updown_violations", correctness.updown_violations},
      {"non_minimal", correctness.non_minimal},
      {"examples", correctness.examples},
      {"worst_case_contention", contention.worst_case},
      {"worst_case_by_consumer", consumers_json(tables.consumers)},
      {"lid_balance", lid_balance_json(fabric, tables.lid_balance)},
      {"exact", contention.exact},
      {"nonblocking", nonblocking(contention)},
      {"notes", all_notes(tables)},
  });
  if (optu_is_baseload(detection)) {
    out["oblivious_ratio"] = contention.worst_case;
  } else {
    out["oblivious_ratio"] = nullptr;
    out["oblivious_ratio_note"] = "not a full fat-tree (PGFT labels, no deviations, as much capacity up as down at "
                                  "every level): the optimal worst case is not known here";
  }
  auto channel = [&](PortRef port) {
    const Node& sw = fabric.node(port.node);
    return json{{"switch", sw.display_name()}, {"guid", format_guid(sw.guid)}, {"port", port.port}};
  };
  out["worst_link"] = contention.links.empty() ? json(nullptr) : channel(contention.worst_link);
  json witness = json::array();
  for (const auto& [source, destination] : contention.witness)
    witness.push_back({fabric.node(source).display_name(), fabric.node(destination).display_name()});
  out["witness"] = std::move(witness);
  json links = json::array();
  for (const LinkLoad& link : contention.links) {
    json entry = channel(link.channel);
    entry["level"] = link.level;
    entry["direction"] = direction_name(direction(fabric, detection.levels, link.channel));
    entry["pairs"] = link.pairs;
    entry["sources"] = link.sources;
    entry["destinations"] = link.destinations;
    entry["matching"] = link.matching;
    links.push_back(std::move(entry));
  }
  out["links"] = std::move(links);
  json groups = json::array();
  for (const ChannelGroup& group : group_channels(fabric, detection.levels, contention)) {
    json by_pairs = json::object();
    for (const auto& [pairs, channels] : group.channels_by_pairs) by_pairs[std::to_string(pairs)] = channels;
    groups.push_back({{"level", group.level}, {"direction", group.direction}, {"worst", group.max_matching},
                      {"channels_by_pairs", std::move(by_pairs)}});
  }
  out["channel_histograms"] = std::move(groups);
  out["patterns"] = patterns_json(audit.patterns);
  return out;
}

}  // namespace

nlohmann::json audit_json(const Fabric& fabric, const Detection& detection, const std::string& topology,
                          const std::vector<AuditedSet>& sets, bool has_primary) {
  nlohmann::json document =
      has_primary ? primary_json(fabric, detection, topology, sets.front()) : fabric_json(topology, detection);
  if (sets.size() > (has_primary ? 1u : 0u)) document["compare"] = comparison_json(compared_sets(detection, sets));
  stamp_report(document, kAuditSchemaVersion);
  return document;
}

std::string audit_page(const Fabric& fabric, const Detection& detection, const std::string& title,
                       const std::vector<AuditedSet>& sets, bool has_primary) {
  const AuditedSet& primary = sets.front();
  AuditReportData data = has_primary ? audit_report_data(fabric, detection, primary.correctness, primary.contention)
                                     : fabric_report_data(fabric, detection);
  data.title = title;
  if (has_primary) {
    data.tables = tables_line(primary);
    if (primary.consumers) data.consumers = consumers_line(*primary.consumers);
    data.warnings = primary.warnings;
    data.notes = all_notes(primary);
    if (optu_is_baseload(detection)) data.oblivious_ratio = primary.contention.worst_case;
  } else {
    data.tables = fmt::format("{} sets compared", sets.size());
  }
  if (sets.size() > (has_primary ? 1u : 0u)) data.compared = compared_sets(detection, sets);
  for (size_t p = 0; p < primary.patterns.size(); ++p)
    for (const AuditedSet& set : sets) data.patterns.push_back({set.label, set.patterns[p]});
  return audit_html(data);
}

}  // namespace ftclos
