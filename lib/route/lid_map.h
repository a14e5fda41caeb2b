// Which node owns which LIDs: a CA owns base .. base + 2^lmc - 1, a switch
// one LID on port 0. Implemented in route/lid_map.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

inline constexpr int kMaxUnicastLid = 0xBFFF;  // 0xC000 and up are multicast

/// Which node owns which LIDs.
struct LidMap {
  int lmc = 0;
  std::vector<int> base;           // per node: CA port 1 base LID / switch port-0 LID; 0 = none
  std::vector<int> owner;          // per LID 0..max_lid: node index or -1
  int max_lid = 0;

  int lids_per_ca() const { return 1 << lmc; }
  /// Where `lid` lies in its owner's range (0 for a switch's, a base LID or
  /// an unowned LID): schemes route offset 0 on its own first, since every
  /// host that does not know its path bits sends there.
  int offset_of(int lid) const {
    const int node = lid < static_cast<int>(owner.size()) ? owner[lid] : -1;
    return node < 0 ? 0 : lid - base[node];
  }
};

/// Where LIDs may go. kAnalysis lifts the unicast limit for studying a
/// scheme on paper only: MLID on FT(16,3) needs 64 LIDs per CA, 65,536 in
/// all, more than InfiniBand's 16-bit LIDs hold. Such tables exist in memory
/// only (experiments); `ftclos route`, the auditor and the plugin use kUnicast.
enum class LidSpace : uint8_t { kUnicast, kAnalysis };

/// True when every switch and CA of the input carries a LID (ibnetdiscover
/// output does; net files do not): assign_lids then keeps them.
bool carries_every_lid(const Fabric& fabric);

/// The LMC the input's CAs carry when it gives every LID and they all agree
/// (what the subnet runs with); 0 otherwise.
int input_lmc(const Fabric& fabric);

/// LIDs as the fabric carries them when every node has one and the CAs'
/// LMC is `lmc` (another LMC renumbers the subnet, so its LIDs do not
/// hold), otherwise assigned deterministically in the manner of OpenSM on
/// a fresh subnet: switches and CAs in GUID order, each CA base aligned to
/// 2^lmc. OpenSM numbers otherwise (ft-8-2 at LMC 2: H-0.0 4-7, then switch
/// L1-0 8) and keeps LIDs across restarts in its guid2lid cache, so these
/// are not the subnet's LIDs; parse_lid_file (audit/lft_parse.h) reads
/// those. Fails when the LIDs would pass the unicast range (in
/// LidSpace::kUnicast).
Result<LidMap> assign_lids(const Fabric& fabric, int lmc, LidSpace space = LidSpace::kUnicast);

}  // namespace ftclos
