// Each family's own numbering of switches and hosts, as text, per node
// (empty for unlabeled nodes).
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"
#include "detect/mikant.h"
#include "detect/xgft.h"

namespace ftclos {

/// Yuan et al. §II-B / §V: switch ((i_0,..,i_{n-2}),level) with level 0 the
/// roots, host (p_0,..,p_{n-1}).
std::vector<std::string> ftree_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels);
/// Petrini: switch <w_0..w_{n-2}, l> with l = 0 the roots, host (p_0..p_{n-1}).
std::vector<std::string> kary_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels);
/// Yuan ftree(n+m, r): "leaf v", "spine i", host (v,k).
std::vector<std::string> clos2_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels);
/// "L<level>:(d_h,..,d_1)" in XGFT digits.
std::vector<std::string> pgft_coords(const Fabric& fabric, const Levels& levels, const XgftLabels& labels);
/// Li and Chu: switch <G,L,D_{n-2},..,D_0>, host <G,C_{n-1},..,C_0>.
std::vector<std::string> mikant_coords(const Fabric& fabric, const MikantLabels& labels);
/// "L<level>#<rank by GUID>": for families without labels.
std::vector<std::string> level_coords(const Fabric& fabric, const Levels& levels);

}  // namespace ftclos
