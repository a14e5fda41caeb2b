// The sets of forwarding tables `ftclos audit` audits, whichever way each
// comes: LFT files (opensm-lfts.dump, ibroute / dump_lfts output) or routing
// the topology here with one of our schemes. The primary set (positional LFT
// files or --scheme) comes first, then one set per --compare file, then one
// per --schemes name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "cli_common.h"
#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos::cli {

/// --pathbits / --offset / --all-offsets: which LID of a destination each
/// source uses, for LFT files and --scheme. Nothing given: each set's own.
struct OffsetRequest {
  std::string path_bits;  // a `0x<port GUID> <bits>` file; empty: not given
  int offset = -1;        // -1: not given
  bool all_offsets = false;

  bool given() const { return !path_bits.empty() || offset >= 0 || all_offsets; }
};

struct TableSources {
  std::vector<std::string> lft_files;      // the primary set; empty: none
  std::string scheme;                      // the primary set, routed here; empty: none
  std::vector<std::string> compare_files;  // one whole set each
  std::vector<std::string> schemes;        // one set each, on the scheme's own offsets
  int lmc = -1;                            // -1: 0 for `scheme`, each one's own for `schemes`
  std::string guid2lid;                    // LIDs every file set must agree with; empty: not given
  OffsetRequest offsets;                   // for the file sets and `scheme`

  bool has_primary() const { return !lft_files.empty() || !scheme.empty(); }
  bool comparing() const { return !compare_files.empty() || !schemes.empty(); }
};

/// One set of tables, ready to audit.
struct TableSet {
  std::string label;   // what comparisons call it, distinct among the sets
  std::string origin;  // what the summary calls the input
  LidMap lids;
  Lfts lfts;
  std::vector<uint8_t> dest_sl;  // a scheme's or --sl's; empty = SL 0
  std::vector<SlException> sl_exceptions;  // --sl's pairs
  std::optional<Sl2VlTables> sl2vl;        // --sl2vl's; none: VL = SL
  OffsetChoice offsets;
  long unknown_lids = 0;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  // what a scheme decided and why (auto's choice, the polish): no fault
};

/// Every set `sources` names, in the order above. Fails on the first set
/// that cannot be read or routed; the message names its file (and line) or
/// its scheme, and `bad_input` is false only when a scheme could not route
/// the fabric (a finding, not the caller's mistake).
Result<std::vector<TableSet>> load_table_sets(const Fabric& fabric, const Detection& detection,
                                              const TableSources& sources, Progress& progress, bool& bad_input);

/// What `auto` routes on this fabric at `lmc`, on its own offsets (origin
/// "scheme auto chose X (LMC L)"): the reference `audit` prints next to the
/// figures of tables read from files.
Result<TableSet> reference_tables(const Fabric& fabric, const Detection& detection, int lmc);

}  // namespace ftclos::cli
