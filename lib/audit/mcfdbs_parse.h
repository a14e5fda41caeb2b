// OpenSM's multicast forwarding tables as it dumps them in opensm.mcfdbs
// (osm_dump.c, dump_mcast_routes; written beside opensm-lfts.dump): one
// block per switch that has an MLID entry,
//
//   Switch 0x0002c90000000001
//   LID    : Out Port(s)
//   0xC000 :  0x001  0x002  0x010
//
// Ports are each MLID's MFT entry (0x000: the switch itself). Switches
// without entries are left out of the file.
#pragma once

#include <algorithm>
#include <vector>

#include "audit/lft_parse.h"
#include "core/fabric.h"
#include "core/status.h"
#include "paths/mcast_tree.h"

namespace ftclos {

/// The groups of the file by ascending MLID, every one with SL `sl`.
/// Errors name file:line: a switch GUID the topology lacks (or a CA's), an
/// entry before any "Switch" line, an MLID outside 0xC000..0xFFFE, a port
/// above the switch's port count, an MLID twice for one switch.
Result<std::vector<McastForwarding>> parse_mcfdbs(const Fabric& fabric, const TextFile& file, uint8_t sl = 0);

}  // namespace ftclos
