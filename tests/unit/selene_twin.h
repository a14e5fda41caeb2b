// A generated twin of NVIDIA Selene's compute fabric
// (ibsim-topos/public/selene-compute.ibnetdiscover, issue #42): 25 SUs of
// 20 DGX A100 x 8 rails in groups of 7 (the last of 4), 10 spines per
// (group, rail) group over 2 cables from each leaf, 140 cores; 2 login
// leaves on one spine over 2 cables each, 2 management pods (a leaf on its
// own spine under 14 cores); 29 cables cut. 666 switches and 8,511 switch
// cables, as the file has.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "detect/detect.h"
#include "gen/generate.h"

namespace ftclos {

inline Fabric selene_twin() {
  Result<Superpod> pod = generate_superpod({.units = 25, .servers = 20, .rails = 8, .levels = 3, .spines = 10,
                                            .group_units = 7, .mgmt_leaves = 2, .mgmt_uplinks = 2, .mgmt_pods = 2,
                                            .seed = 2});
  EXPECT_TRUE(pod.ok()) << pod.status().message();
  if (!pod.ok()) return {};
  EXPECT_TRUE(degrade(pod->fabric, {.fail_links = 29, .seed = 2}).ok());
  return std::move(pod->fabric);
}

/// What `detect` says of a SuperPOD's shape, not of its exact cables.
struct PodShape {
  int levels = 0;
  std::vector<std::pair<std::string, std::vector<int>>> pgft;  // h, m, w, p
  size_t management_leaves = 0, management_spines = 0;
  std::map<int, int> aggregation_nodes_by_level;
};

inline PodShape pod_shape(const Fabric& fabric, const Detection& detection) {
  PodShape shape;
  shape.levels = detection.levels.height;
  shape.management_leaves = detection.management_leaves.size();
  shape.management_spines = detection.management_spines.size();
  if (const FamilyMatch* pgft = detection.find(Family::kPgft))
    for (const FamilyParam& param : pgft->params) shape.pgft.emplace_back(param.key, param.values);
  for (int an : detection.levels.aggregation_nodes) ++shape.aggregation_nodes_by_level[attached_level(fabric, detection.levels, an)];
  return shape;
}

inline void expect_same_shape(const PodShape& a, const PodShape& b) {
  EXPECT_EQ(a.levels, b.levels);
  EXPECT_EQ(a.pgft, b.pgft);
  EXPECT_EQ(a.management_leaves, b.management_leaves);
  EXPECT_EQ(a.management_spines, b.management_spines);
  EXPECT_EQ(a.aggregation_nodes_by_level, b.aggregation_nodes_by_level);
}

}  // namespace ftclos
