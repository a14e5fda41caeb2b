// Reading forwarding tables back for the auditor: OpenSM's opensm-lfts.dump
// and what infiniband-diags 44 prints (`ibroute <switch>`, `dump_lfts` /
// `dump_fts`), matched to a topology by GUID. Both formats have one block
// per switch; lft_dump.h shows OpenSM's, ibroute's reads
//
//   Unicast lids [0x0-0x8] of switch Lid 2 guid 0xf7c1000000000001 (L1-0):
//     Lid  Out   Destination
//          Port     Info
//   0x0001 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
//   0x0003 001 : (path #2 out of 2: portguid 0xf7c1100000000101)
//   8 valid lids dumped
//
// (dump_fts names the switch by "DR path slid 0; dlid 0; 0,1,5" instead of
// "Lid 2"). Nothing in the tables states LIDs or the LMC directly: every
// entry names the port GUID its LID belongs to, and a CA's LIDs are the
// consecutive run base .. base + 2^lmc - 1 of entries naming its port.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/files.h"
#include "core/status.h"
#include "route/routing.h"

namespace ftclos {

/// A file's text with the name errors use ("name:line: what was expected"):
/// held in `text`, or for a regular file read from disk, mapped.
struct TextFile {
  std::string name;
  std::string text;
  std::shared_ptr<const MappedFile> mapped = nullptr;  // when set, the text is its

  std::string_view view() const { return mapped ? mapped->text() : std::string_view(text); }
};

/// Maps a regular file (the parser lets its pages go as it reads on, so
/// memory stays small for a dump of any size); anything else (a FIFO,
/// /dev/zero) fails as read_file does, without waiting.
Result<TextFile> read_text_file(const std::string& path);

struct LftRead {
  LidMap lids;
  Lfts lfts;                          // every switch of the topology; no block = all kNoPath
  long unknown_lids = 0;              // routed LIDs that no CA port 1 / switch of the topology owns
  std::vector<std::string> warnings;  // for people: unknown LIDs, missing tables, ibroute's skipped block
};

/// Parses LFT files of either format, several switch blocks each.
/// `lid_file` (optional): OpenSM's guid2lid (`0x<guid> <lid> <lid>` lines)
/// or opensm-subnet.lst, whose LIDs the tables must then agree with.
/// `progress` (optional) is called with 10, 20, ... as the input is read.
/// A switch GUID not in the topology, a port above the switch's port count,
/// a block without its "N lids dumped" line, two owners for one LID and CAs
/// that disagree on the LMC are errors; with `skip_lost_switches` (previous
/// tables of a fabric that has since lost switches) a GUID the topology
/// lacks is skipped with a warning.
Result<LftRead> parse_lfts(const Fabric& fabric, const std::vector<TextFile>& files, const TextFile* lid_file = nullptr,
                           const std::function<void(int percent)>& progress = nullptr, bool skip_lost_switches = false);

/// The LIDs of OpenSM's guid2lid cache (or opensm-subnet.lst), so that a
/// fabric routed offline uses the subnet's LIDs; the LMC is the width of the
/// CAs' ranges. GUIDs the topology lacks (the cache outlives nodes) are
/// ignored. A bad line names the file and line; a switch or cabled CA port
/// without a LID in the file is an error naming it.
Result<LidMap> parse_lid_file(const Fabric& fabric, const TextFile& file);

/// Per-node path bits from `0x<port GUID> <bits>` lines (path_bits.h); CAs
/// the file does not name get 0. Bits must fit the LMC; a file that names
/// no CA (empty, or comments only) is an error.
Result<std::vector<int>> parse_path_bits(const Fabric& fabric, int lmc, const TextFile& file);

}  // namespace ftclos
