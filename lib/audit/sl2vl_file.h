// SL-to-VL tables read back from a subnet: the output of `smpquery sl2vl
// LID PORT` (infiniband-diags) for switch ports, concatenated:
//
//   # SL2VL table: Lid 63
//   #                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|
//   ports: in  0, out  4: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|
//   ports: in  1, out  4: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|
//
// or OpenSM's own opensm-sl2vl.dump (what it programmed, written with
// log_flags ROUTING), a header per node and a row per port pair:
//
//   Switch 0xf7c1000000000001, base LID 2, "L1-0.0"
//   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
//   0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7
//
// The header names the switch by the tables' LIDs. Tables of CAs (one row,
// in 0 out 0; "Channel Adapter" or "Router" headers) are accepted and left
// out: the auditor's channels run between switches.
#pragma once

#include "audit/audit.h"
#include "audit/lft_parse.h"
#include "core/fabric.h"
#include "core/status.h"
#include "route/lid_map.h"

namespace ftclos {

/// Errors name file:line: a row before any header, a LID no node owns, a
/// port the switch does not have, a VL above 15, a row given twice.
Result<Sl2VlTables> parse_sl2vl_file(const Fabric& fabric, const LidMap& lids, const TextFile& file);

}  // namespace ftclos
