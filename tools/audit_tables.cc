#include "audit_tables.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <utility>

#include "audit/lft_parse.h"
#include "report/compare.h"
#include "traffic/pattern_load.h"

namespace ftclos::cli {
namespace {

// LFT files above this size report their reading every 10%.
constexpr size_t kBigInput = 16 << 20;

// One set read from `paths`, every source on offset 0.
Result<TableSet> tables_from_files(const Fabric& fabric, const std::vector<std::string>& paths,
                                   const std::string& guid2lid, Progress& progress) {
  std::vector<TextFile> files;
  size_t total = 0;
  for (const std::string& path : paths) {
    Result<TextFile> file = read_text_file(path);
    if (!file.ok()) return file.status();
    total += file->view().size();
    files.push_back(std::move(*file));
  }
  std::optional<TextFile> lid_file;
  if (!guid2lid.empty()) {
    Result<TextFile> file = read_text_file(guid2lid);
    if (!file.ok()) return file.status();
    lid_file = std::move(*file);
  }
  auto report = [&](int percent) { progress.stage(fmt::format("read {}% of the LFT input", percent)); };
  Result<LftRead> read = parse_lfts(fabric, files, lid_file ? &*lid_file : nullptr,
                                    total >= kBigInput ? std::function<void(int)>(report) : nullptr);
  if (!read.ok()) return read.status();
  TableSet set;
  set.origin = fmt::format("{}", fmt::join(paths, ", "));
  set.lids = std::move(read->lids);
  set.lfts = std::move(read->lfts);
  set.unknown_lids = read->unknown_lids;
  set.warnings = std::move(read->warnings);
  return set;
}

// Routed here by `scheme` at `lmc` (-1: the LMC it asks for), on its own
// offsets: its path bits, all offsets for multipath.
Result<TableSet> tables_from_scheme(const Fabric& fabric, const Detection& detection, const std::string& scheme,
                                    int lmc, bool& bad_input) {
  bool caller_mistake = true;
  Result<SchemeTables> routed = route_scheme(fabric, detection, scheme, lmc, LidSpace::kUnicast, &caller_mistake);
  if (!routed.ok()) {
    bad_input = caller_mistake;
    return routed.status();
  }
  TableSet set;
  const std::string chose = routed->routing.chosen.empty() ? "" : fmt::format(" chose {}", routed->routing.chosen);
  set.origin = fmt::format("scheme {}{} (LMC {})", scheme, chose, routed->lids.lmc);
  set.lids = std::move(routed->lids);
  set.lfts = std::move(routed->routing.lfts);
  set.dest_sl = std::move(routed->routing.dest_sl);
  set.offsets = std::move(routed->offsets);
  set.warnings = std::move(routed->notes);
  // Named by the scheme, for the notes of several sets.
  for (const std::string& note : routed->routing.notes) set.notes.push_back(fmt::format("{}: {}", scheme, note));
  if (lmc >= 0 && lmc < routed->routing.lmc_needed)
    set.warnings.push_back(
        fmt::format("{} needs LMC {} for its full guarantee on this fabric", scheme, routed->routing.lmc_needed));
  return set;
}

// The offsets asked for, which must fit the set's LMC.
Result<OffsetChoice> requested_offsets(const Fabric& fabric, const OffsetRequest& request, const LidMap& lids) {
  OffsetChoice choice;
  if (!request.path_bits.empty()) {
    Result<TextFile> file = read_text_file(request.path_bits);
    if (!file.ok()) return file.status();
    Result<std::vector<int>> bits = parse_path_bits(fabric, lids.lmc, *file);
    if (!bits.ok()) return bits.status();
    choice.mode = OffsetChoice::Mode::kPathBits;
    choice.path_bits = std::move(*bits);
  } else if (request.all_offsets) {
    choice.mode = OffsetChoice::Mode::kAllOffsets;
  } else {
    if (request.offset >= lids.lids_per_ca())
      return Status::Error(fmt::format("--offset {} needs LMC {} or more; the tables have LMC {}", request.offset,
                                       std::bit_width(static_cast<unsigned>(request.offset)), lids.lmc));
    choice.offset = request.offset;
  }
  return choice;
}

// `set` on the offsets asked for, if any were; errors name the set.
Result<TableSet> on_requested_offsets(const Fabric& fabric, const OffsetRequest& request, Result<TableSet> set) {
  if (!set.ok() || !request.given()) return set;
  Result<OffsetChoice> offsets = requested_offsets(fabric, request, set->lids);
  if (!offsets.ok()) return Status::Error(fmt::format("{}: {}", set->origin, offsets.status().message()));
  set->offsets = std::move(*offsets);
  return set;
}

// What comparisons call each set, in load order.
std::vector<std::string> set_labels(const TableSources& sources) {
  std::vector<std::string> labels;
  if (!sources.lft_files.empty()) labels.push_back("LFTs");
  if (!sources.scheme.empty()) labels.push_back(sources.scheme);
  for (std::string& name : file_labels(sources.compare_files)) labels.push_back(std::move(name));
  labels.insert(labels.end(), sources.schemes.begin(), sources.schemes.end());
  return distinct_labels(std::move(labels));
}

}  // namespace

Result<std::vector<TableSet>> load_table_sets(const Fabric& fabric, const Detection& detection,
                                              const TableSources& sources, Progress& progress, bool& bad_input) {
  bad_input = true;  // unless a scheme says otherwise
  const std::vector<std::string> labels = set_labels(sources);
  std::vector<TableSet> sets;
  auto add = [&](Result<TableSet> set) -> Status {
    if (!set.ok()) return set.status();
    set->label = labels[sets.size()];
    sets.push_back(std::move(*set));
    return Status::Ok();
  };
  const OffsetRequest& request = sources.offsets;
  if (!sources.lft_files.empty()) {
    Result<TableSet> set = tables_from_files(fabric, sources.lft_files, sources.guid2lid, progress);
    if (Status status = add(on_requested_offsets(fabric, request, std::move(set))); !status.ok()) return status;
  }
  if (!sources.scheme.empty()) {
    Result<TableSet> set = tables_from_scheme(fabric, detection, sources.scheme,
                                              sources.lmc >= 0 ? sources.lmc : input_lmc(fabric), bad_input);
    if (Status status = add(on_requested_offsets(fabric, request, std::move(set))); !status.ok()) return status;
  }
  for (const std::string& path : sources.compare_files) {
    Result<TableSet> set = tables_from_files(fabric, {path}, sources.guid2lid, progress);
    if (Status status = add(on_requested_offsets(fabric, request, std::move(set))); !status.ok()) return status;
  }
  for (const std::string& scheme : sources.schemes)
    if (Status status = add(tables_from_scheme(fabric, detection, scheme, sources.lmc, bad_input)); !status.ok())
      return status;
  return sets;
}

Result<TableSet> reference_tables(const Fabric& fabric, const Detection& detection, int lmc) {
  bool bad_input = false;
  return tables_from_scheme(fabric, detection, "auto", lmc, bad_input);
}

}  // namespace ftclos::cli
