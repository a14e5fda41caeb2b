// Factories of the routing schemes, one file each (schemes/scheme_<name>.cc);
// schemes/scheme_registry.cc maps names to them.
#pragma once

#include <memory>

#include "route/routing.h"

namespace ftclos {

std::unique_ptr<Scheme> make_dmodk_scheme();        // D-mod-k (Zahavi), destination-based
std::unique_ptr<Scheme> make_multipath_scheme();    // OMRMN-style: offsets spread over shortest paths
std::unique_ptr<Scheme> make_updown_scheme();       // up/down balanced by destination, any folded Clos
std::unique_ptr<Scheme> make_nonblocking_scheme();  // Yuan's nonblocking ftree(n+n^2, r)
std::unique_ptr<Scheme> make_osrm_scheme();         // OSRM2 / OSRM3 (Yuan et al. §V)
std::unique_ptr<Scheme> make_mlid_scheme();         // Lin, Chung and Huang's MLID
std::unique_ptr<Scheme> make_mikant_scheme();       // Li and Chu, Algorithm 1, SL per destination group
std::unique_ptr<Scheme> make_updown_star_scheme();  // up*/down*: any connected fabric, deadlock-free
std::unique_ptr<Scheme> make_layered_scheme();      // DF-SSSP: balanced shortest paths in VL layers, any connected fabric
std::unique_ptr<Scheme> make_updown_layers_scheme(); // up*/down* in one order per VL layer, any connected fabric
std::unique_ptr<Scheme> make_torus_scheme();        // dimension order with datelines, tori and meshes
std::unique_ptr<Scheme> make_auto_scheme();         // the best of the above the fabric and LMC allow

}  // namespace ftclos
