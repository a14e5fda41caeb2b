// The SL file: which SL each (source LID, destination LID) pair sends on, as
// `ftclos route --sl` writes it and `ftclos audit --sl` reads it. Compact
// for any fabric size: a default per destination LID, pairs only where a
// source differs from it.
//
//   ftclos-sl 1                 first line that is not a comment: the format
//   dlid 0x0005 1               every source sends to LID 5 on SL 1
//   dlid 0x0010-0x001f 2        ... to LIDs 16..31 on SL 2
//   pair 0x0003 0x0005 0        source LID 3 sends to LID 5 on SL 0
//
// LIDs are decimal or 0x hex, SLs 0..15; `#` starts a comment. A LID no
// `dlid` line names has SL 0 (so a single-SL routing writes the header
// only). A `pair` names the source CA by any of its LIDs: the SL holds for
// every LID of that CA to the destination LID.
#pragma once

#include <cstdint>
#include <vector>

#include "audit/audit.h"
#include "audit/lft_parse.h"
#include "core/files.h"
#include "core/status.h"
#include "route/lid_map.h"

namespace ftclos {

struct PathSls {
  std::vector<uint8_t> dest_sl;          // per LID 0..max_lid
  std::vector<SlException> exceptions;   // sorted; none equal to its LID's dest_sl
};

/// Writes `dest_sl` (per LID; empty = SL 0 everywhere) and `exceptions`
/// (their source by its base LID) to `sink`, runs of equal SLs as ranges.
bool write_sl_file(const LidMap& lids, const std::vector<uint8_t>& dest_sl,
                   const std::vector<SlException>& exceptions, const TextSink& sink);

/// Reads an SL file against the tables' LIDs; errors name file:line and
/// what was expected (a LID above max_lid, a source LID no CA owns, a LID or
/// pair given twice with different SLs, an SL above 15).
Result<PathSls> parse_sl_file(const Fabric& fabric, const LidMap& lids, const TextFile& file);

}  // namespace ftclos
