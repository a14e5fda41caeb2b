// Management leaves: the thin leaves of a pod (UFM, head and login nodes)
// that hang off one spine group beside the rail leaves. They are leaves,
// level 1, but no part of the tree's shape: fitted in, one such leaf makes
// its spine group one child wider than every other and the fit reports a
// missing leaf under each of them. Recognition fits the tree without them
// and reports them apart.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/levels.h"
#include "detect/xgft.h"

namespace ftclos {

/// Level-1 switches with at most half the uplinks of the best-cabled leaf
/// (cables to level-2 switches), or at most half its spines (distinct
/// level-2 neighbours: a management leaf cabled many times to one or two
/// spines of its own) and at most half the hosts of the fullest leaf, by
/// index. A leaf that lost cables keeps more than
/// half; a partial SU's leaf keeps all of them.
std::vector<int> thin_leaves(const Fabric& fabric, const Levels& levels);

/// Level-2 switches with only `management` leaves below, each with at most
/// half the hosts of the fullest leaf (a management pod's spine, cabled to
/// the cores beside the tree's spines; not the spine left above compute
/// leaves that lost its siblings), by index: apart from the tree's shape as
/// those leaves are.
std::vector<int> management_spines(const Fabric& fabric, const Levels& levels, const std::vector<int>& management);

/// The cables `management` leaves lack: a management leaf hangs off one
/// spine group (on a 2-level tree, every spine), so each level-2 switch that
/// shares a tree leaf below with one of its spines and is not cabled to it
/// is a missing cable (none for a leaf cabled to one spine over parallel
/// cables: it hangs off that spine alone by design), at the ports the siblings use (the other management
/// leaves' toward that spine, the other spines' toward that leaf; 0 when
/// no such port is free).
std::vector<Deviation> management_leaf_gaps(const Fabric& fabric, const Levels& levels,
                                            const std::vector<int>& management);

/// fit_xgft with the `set_aside` leaves and the CAs on them left out;
/// labels, deviations and reduced leaves indexed in `fabric`, the set-aside
/// leaves marked reduced (their free ports and uplinks do not deviate).
Result<XgftFit> fit_xgft_without(const Fabric& fabric, const Levels& levels, const std::vector<int>& set_aside);

}  // namespace ftclos
