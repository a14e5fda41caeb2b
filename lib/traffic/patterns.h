// Traffic patterns as traffic matrices over the CAs, numbered 0..N-1 (the
// caller says which CA each number is). Yuan et al., "Oblivious routing in
// fat-tree based system area networks", §VI, define the random families:
// random uniform (every off-diagonal entry sends one unit with probability
// p), the regular patterns ring, 2D mesh, 3D mesh, hypercube and binary tree
// on all nodes with the nodes placed randomly per instance, clustered (all
// nodes in random groups of one size, all-to-all inside each group) and hot
// spots (a few random groups doing all-to-all, the rest quiet). The classic
// permutations (shift, bit reversal, transpose, random) and all-to-all join
// them; `bisection` is the random bisection pairing of ORCS (see
// pattern_load.h). torus2d/torus3d are the meshes with wrap-around links, an
// alternative reading of §VI's meshes. A node never sends to itself: such
// entries are dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace ftclos {

/// One traffic-matrix entry: `amount` units from CA number src to dst.
struct Flow {
  int src = 0;
  int dst = 0;
  double amount = 1;
};

/// A sparse traffic matrix over `hosts` CAs.
struct TrafficMatrix {
  int hosts = 0;
  std::vector<Flow> flows;
};

/// A parsed `NAME[:p1[,p2]]`.
struct PatternSpec {
  std::string name;
  std::vector<double> params;
  std::string text;  // as written, for tables
};

/// Parses `NAME[:p1[,p2]]`; fails naming the unknown pattern (with the known
/// ones) or the parameter that is missing, extra or out of range.
Result<PatternSpec> parse_pattern(std::string_view text);

/// One instance over `hosts` CAs; `seed` drives the random choices (ignored
/// by the deterministic patterns). Fails when the pattern does not fit the
/// host count (bit-reversal and hypercube need a power of two, transpose a
/// square, clustered a group size dividing it, hot-spot enough hosts).
Result<TrafficMatrix> make_pattern(const PatternSpec& pattern, int hosts, uint64_t seed);

/// The check make_pattern makes first, without building an instance: for
/// commands that reject bad input before any work.
Status pattern_fits(const PatternSpec& pattern, int hosts);

/// Whether instances differ by seed (then they are averaged over).
bool is_random_pattern(const PatternSpec& pattern);

/// `NAME[:params]` and a line of help per pattern.
struct PatternHelp {
  std::string_view usage;
  std::string_view what;
};
const std::vector<PatternHelp>& pattern_help();

/// The grid sides the mesh patterns lay N nodes on: the most even
/// factorization into `dims` sides, smallest first (512 -> 16x32 and 8x8x8).
std::vector<int> mesh_sides(int hosts, int dims);

}  // namespace ftclos
