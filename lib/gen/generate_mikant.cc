// Mirrored k-ary n-tree MiKANT(k, n) (Li and Chu, §II). Switch <G, L, D> with
// group G in {0, 1}, stage L in 0..n-2 and digits D = D_{n-2}..D_0 in [0, k):
// stage L <= n-3 connects up to <G, L+1, D with D_L = *>; stage n-2 connects
// across to <!G, n-2, D with D_{n-2} = *>; host <G, C_{n-1}..C_0> hangs off
// <G, 0, C_{n-2}..C_0>.
//
// Ports follow the paper's labels shifted by one: ports 1..k go down (to the
// neighbor whose varying digit, or a host's C_{n-1}, is port - 1), ports
// k+1..2k go up or across (port k+1+i to the neighbor whose varying digit is i).
//
// Names: switches `G<G>-L<L>-<D_{n-2}...D_0>`, hosts `H<G>-<C_{n-1}...C_0>`.
#include <fmt/format.h>

#include <string>

#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// Digits of `index` in base k, most significant first, dot-separated.
std::string digits_label(int index, int k, int count) {
  std::string text;
  for (int i = count - 1; i >= 0; --i) {
    int digit = index;
    for (int j = 0; j < i; ++j) digit /= k;
    text += fmt::format("{}{}", i == count - 1 ? "" : ".", digit % k);
  }
  return text;
}

}  // namespace

Result<Fabric> generate_mikant(int k, int levels) {
  const int n = levels;
  if (k < 1) return Status::Error(fmt::format("MiKANT(k, n): k must be positive, got {}", k));
  if (n < 2) return Status::Error(fmt::format("MiKANT(k, n): n must be at least 2, got {}", n));
  if (2 * k > 254) return Status::Error(fmt::format("MiKANT(k, n): radix 2k = {} is above 254 ports", 2 * k));
  int64_t stage_size = 1;  // k^(n-1), or just past the cap
  for (int i = 0; i < n - 1 && i < kMaxGeneratedNodes && stage_size <= kMaxGeneratedNodes; ++i) stage_size *= k;
  if (n > kMaxGeneratedNodes || (2 * int64_t{n} - 2 + 2 * int64_t{k}) * stage_size > kMaxGeneratedNodes)
    return Status::Error(fmt::format("MiKANT({}, {}): more than {} nodes; refusing to generate", k, n,
                                     kMaxGeneratedNodes));
  const int per_stage = static_cast<int>(stage_size);
  const int stages = n - 1;
  // Switch <G, L, D> is node (G * stages + L) * per_stage + D; hosts follow.
  auto switch_node = [&](int g, int l, int d) { return (g * stages + l) * per_stage + d; };
  // The weight of digit D_i (= k^i) and D with D_i replaced by `value`.
  auto weight = [&](int i) {
    int w = 1;
    for (int j = 0; j < i; ++j) w *= k;
    return w;
  };
  auto with_digit = [&](int d, int i, int value) { return d + (value - d / weight(i) % k) * weight(i); };

  Fabric fabric;
  for (int g = 0; g < 2; ++g)
    for (int l = 0; l < stages; ++l)
      for (int d = 0; d < per_stage; ++d) {
        Result<int> node = add_switch(fabric, fmt::format("G{}-L{}-{}", g, l, digits_label(d, k, n - 1)), 2 * k,
                                      switch_node(g, l, d));
        if (!node.ok()) return node.status();
      }
  const int hosts_per_group = per_stage * k;
  for (int g = 0; g < 2; ++g)
    for (int c = 0; c < hosts_per_group; ++c) {
      const int index = g * hosts_per_group + c;
      Result<int> host = add_host(fabric, fmt::format("H{}-{}", g, digits_label(c, k, n)), 1, index);
      if (!host.ok()) return host.status();
      // C_{n-1} picks the leaf's down port; C_{n-2}..C_0 are the leaf's digits.
      const PortRef leaf_port{switch_node(g, 0, c % per_stage), 1 + c / per_stage};
      if (Status status = fabric.connect({*host, 1}, leaf_port); !status.ok()) return status;
    }
  for (int g = 0; g < 2; ++g)
    for (int l = 0; l < stages; ++l)
      for (int d = 0; d < per_stage; ++d) {
        const bool across = l == stages - 1;
        if (across && g == 1) continue;  // group 0 already cabled both ends
        const int digit = across ? n - 2 : l;  // the digit that varies toward the neighbors
        const int own = d / weight(digit) % k;
        for (int i = 0; i < k; ++i) {
          const int neighbor = across ? switch_node(1, l, with_digit(d, digit, i))
                                      : switch_node(g, l + 1, with_digit(d, digit, i));
          const PortRef far{neighbor, across ? k + 1 + own : 1 + own};
          if (Status status = fabric.connect({switch_node(g, l, d), k + 1 + i}, far); !status.ok()) return status;
        }
      }
  return fabric;
}

}  // namespace ftclos
