// Tori and meshes (k-ary n-cubes, Dally and Seitz): switches on a grid of
// 1 to 3 dimensions, each a ring (wrap-around cable) or a path, hosts on
// every switch. Recognized by embedding the switch graph into each grid
// shape the switch and cable counts allow, coordinate by coordinate, with
// the fewest cables out of place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "detect/deviation.h"

namespace ftclos {

struct TorusLabels {
  std::vector<int> dims;    // switches along each dimension, the largest first
  std::vector<bool> wraps;  // per dimension: a ring, else a path (mesh)
  std::vector<int> index;   // per node: grid index (dimension 0 fastest); a host its switch's; -1 elsewhere

  int switches() const;
  /// Coordinate of grid index `at` in dimension `dim`.
  int coord(int at, int dim) const;
  /// The grid index one step from `at` in `dim` (step +1 or -1), -1 off a path's end.
  int step(int at, int dim, int by) const;
  /// "torus 4x4", "mesh 3x5", "torus 4x2 (dimension 2 a path)".
  std::string shape_text() const;
};

struct TorusFit {
  TorusLabels labels;
  std::vector<Deviation> deviations;  // cables the grid lacks or does not have
};

/// The torus or mesh `fabric`'s switches form with at most `max_deviations`
/// cables out of place (missing, or joining switches the grid does not
/// join), the fewest dimensions and deviations first; nullopt when none does
/// (or a switch has more than 6 switch neighbours, or the search gives up).
std::optional<TorusFit> fit_torus(const Fabric& fabric, int max_deviations);

/// "(x,y)" per switch and per host (its switch's); empty elsewhere.
std::vector<std::string> torus_coords(const Fabric& fabric, const TorusLabels& labels);

}  // namespace ftclos
