// LFTs as OpenSM writes them to opensm-lfts.dump, which is also what its
// `file` routing engine loads (`routing_engine file`, `lfts_file <path>`):
//
//   Unicast lids [0-14] of switch Lid 2 guid 0xf7c1000000000001 ('L1-0'):
//   0x0001 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
//   ...
//   14 lids dumped
//
// The file engine finds switches by GUID and moves every destination to the
// LID its port GUID has in the running subnet, so the dump stays valid when
// OpenSM assigns other LIDs than assign_lids did.
#pragma once

#include <string>

#include "core/files.h"
#include "core/fabric.h"
#include "route/routing.h"

namespace ftclos {

/// One block per switch in the order OpenSM walks its switch table
/// (dump_ucast_lfts in osm_dump.c): node GUIDs in network byte order
/// compared as host integers, on a little-endian host by the byte-reversed
/// GUID (ascending GUIDs only where they differ in the last byte alone), so that on OpenSM's LIDs the dump is
/// byte for byte OpenSM's; LIDs without a route (kNoPath) are left out, as
/// OpenSM leaves them out. The text goes to `sink` in chunks of whole
/// switch blocks (FT(36,3)'s dump is 1.3 GB; memory stays at about one
/// block). Returns false when the sink refused a chunk.
bool write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, const TextSink& sink);

/// The same as one string (small fabrics, tests).
std::string write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts);

}  // namespace ftclos
