// The fabric files operators have besides ibnetdiscover's own format (core/netfile.h),
// each read by its own file here and picked by content (core/fabric_file.h):
//
//   ibnetdiscover -p   SW 40 5 0x<port GUID> 4x SDR - SW 41 8 0x<GUID> ( 'L1-7' - 'L2-0' )
//   iblinkinfo         "Switch: 0x<GUID> L1-7:" / "CA: H-7.3:" blocks of
//                      [0x<port GUID>] LID PORT[  ] ==( 4X 2.5 Gbps Active/ LinkUp)==> LID PORT[  ] "peer" (..)
//   opensm-subnet.lst  { CA Ports:01 .. NodeGUID:.. PortGUID:.. {H-0.0} LID:0001 PN:01 } { SW .. } PHY=4x LOG=ACT SPD=2.5
//   ibnetdiscover --cache FILE (binary), read by libibnetdisc's ibnd_load_fabric
//
// None of the text formats prints the LMC (LMC 0 is read), and -p and
// iblinkinfo print no CA node GUID: a CA is named by its port GUID there.
// Errors read "source:line: what was expected", with the offending text cut.
#pragma once

#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

/// `ibnetdiscover -p` output.
Result<Fabric> parse_ports_report(std::string_view text, std::string_view source);
/// `iblinkinfo` output (its default layout). Peers are named by LID there,
/// so a fabric without LIDs (no SM yet) is an error.
Result<Fabric> parse_iblinkinfo(std::string_view text, std::string_view source);
/// OpenSM's opensm-subnet.lst (also ibdiagnet's .lst).
Result<Fabric> parse_subnet_lst(std::string_view text, std::string_view source);
/// True when ftclos was built with libibnetdisc (meson option, on when found).
bool can_load_ibnd_cache();
/// ibnetdiscover's binary cache, by libibnetdisc's ibnd_load_fabric. Without
/// libibnetdisc: an error saying so and what to run instead.
Result<Fabric> load_ibnd_cache(const std::string& path);

}  // namespace ftclos
