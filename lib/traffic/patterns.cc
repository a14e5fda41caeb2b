// The traffic patterns of patterns.h. Random choices use mt19937_64 through
// core/random.h's draw_below/shuffle_in_place, so one seed gives one
// matrix with every standard library.
#include "traffic/patterns.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <numeric>
#include <random>

#include "core/random.h"

namespace ftclos {
namespace {

struct PatternDef {
  std::string_view name;
  int min_params;
  int max_params;
  bool random;
  PatternHelp help;
};

const std::vector<PatternDef>& definitions() {
  static const std::vector<PatternDef> defs = {
      {"shift", 1, 1, false, {"shift:k", "i sends to (i + k) mod N"}},
      {"bit-reversal", 0, 0, false, {"bit-reversal", "i sends to i with its log2(N) bits reversed (N a power of 2)"}},
      {"transpose", 0, 0, false, {"transpose", "i = r*K + c sends to c*K + r (N = K*K)"}},
      {"permutation", 0, 0, true, {"permutation", "a random permutation"}},
      {"all-to-all", 0, 0, false, {"all-to-all", "every node sends one unit to every other node"}},
      {"uniform", 1, 1, true, {"uniform:p", "random uniform: each pair sends one unit with probability p (§VI)"}},
      {"ring", 0, 0, true, {"ring", "ring neighbours exchange a unit each way; random placement (§VI)"}},
      {"mesh2d", 0, 0, true, {"mesh2d", "2D mesh neighbours (most even sides, no wrap); random placement (§VI)"}},
      {"mesh3d", 0, 0, true, {"mesh3d", "3D mesh neighbours (most even sides, no wrap); random placement (§VI)"}},
      {"torus2d", 0, 0, true, {"torus2d", "mesh2d with wrap-around links (sides > 2); random placement"}},
      {"torus3d", 0, 0, true, {"torus3d", "mesh3d with wrap-around links (sides > 2); random placement"}},
      {"hypercube", 0, 0, true, {"hypercube", "hypercube neighbours (N a power of 2); random placement (§VI)"}},
      {"binary-tree", 0, 0, true, {"binary-tree", "node x and its parent (x-1)/2 exchange; random placement (§VI)"}},
      {"clustered", 1, 1, true, {"clustered:size", "random groups of `size`, all-to-all inside each (§VI)"}},
      {"hot-spot", 2, 2, true, {"hot-spot:count,size", "`count` random groups of `size` do all-to-all (§VI)"}},
      {"bisection", 0, 0, true, {"bisection", "random halves, random pairs across exchange a unit (ORCS)"}},
  };
  return defs;
}

const PatternDef* find_definition(std::string_view name) {
  for (const PatternDef& def : definitions())
    if (def.name == name) return &def;
  return nullptr;
}

std::string known_names() {
  std::string out;
  for (const PatternDef& def : definitions()) out += (out.empty() ? "" : ", ") + std::string(def.help.usage);
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

bool parse_number(std::string_view text, double& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

bool is_whole(double value) { return value == std::floor(value) && std::abs(value) < 1e9; }

// The range checks that depend on the pattern but not on the host count.
Status check_params(const PatternSpec& spec) {
  const std::vector<double>& p = spec.params;
  auto whole_at_least = [&](size_t i, double least, std::string_view what) {
    if (is_whole(p[i]) && p[i] >= least) return Status::Ok();
    return Status::Error(fmt::format("pattern \"{}\": {} must be a whole number >= {}, got {}", spec.text, what,
                                     least, p[i]));
  };
  if (spec.name == "shift") return whole_at_least(0, 0, "the shift k");
  if (spec.name == "uniform" && !(p[0] >= 0 && p[0] <= 1))
    return Status::Error(fmt::format("pattern \"{}\": p must be in 0..1, got {}", spec.text, p[0]));
  if (spec.name == "clustered") return whole_at_least(0, 1, "the group size");
  if (spec.name == "hot-spot") {
    if (Status status = whole_at_least(0, 1, "the hot-spot count"); !status.ok()) return status;
    return whole_at_least(1, 1, "the hot-spot size");
  }
  return Status::Ok();
}

// Uniform in [0, 1) from the top 53 bits: the same everywhere.
double draw_unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::vector<int> random_order(int hosts, std::mt19937_64& rng) {
  std::vector<int> order(hosts);
  std::iota(order.begin(), order.end(), 0);
  shuffle_in_place(order.begin(), order.end(), rng);
  return order;
}

void add(TrafficMatrix& tm, int src, int dst, double amount = 1) {
  if (src != dst) tm.flows.push_back({src, dst, amount});
}

// Logical edges placed on hosts: logical node x runs on host place[x]; every
// edge carries one unit each way (the paper's regular patterns are symmetric).
void add_exchange(TrafficMatrix& tm, const std::vector<int>& place, int x, int y) {
  add(tm, place[x], place[y]);
  add(tm, place[y], place[x]);
}

void add_all_to_all(TrafficMatrix& tm, const std::vector<int>& group) {
  for (int a : group)
    for (int b : group) add(tm, a, b);
}

Status need_power_of_two(const PatternSpec& spec, int hosts) {
  if (std::has_single_bit(static_cast<unsigned>(hosts))) return Status::Ok();
  return Status::Error(fmt::format("pattern \"{}\" needs a power-of-two host count, have {}", spec.text, hosts));
}

// Neighbours along each side; with `wrap` the last of a row also meets the
// first (not on sides of 2, where they are neighbours already).
void mesh(TrafficMatrix& tm, const std::vector<int>& place, const std::vector<int>& sides, bool wrap) {
  const int hosts = static_cast<int>(place.size());
  for (int x = 0; x < hosts; ++x) {
    int stride = 1;
    for (int side : sides) {
      const int at = (x / stride) % side;
      if (at + 1 < side) add_exchange(tm, place, x, x + stride);
      else if (wrap && side > 2) add_exchange(tm, place, x, x - at * stride);
      stride *= side;
    }
  }
}

// One instance of a pattern that fits (pattern_fits).
TrafficMatrix build(const PatternSpec& spec, int hosts, std::mt19937_64& rng) {
  TrafficMatrix tm{hosts, {}};
  const std::string& name = spec.name;
  if (name == "shift") {
    const int k = static_cast<int>(static_cast<long>(spec.params[0]) % hosts);
    for (int i = 0; i < hosts; ++i) add(tm, i, (i + k) % hosts);
  } else if (name == "bit-reversal") {
    const int bits = std::countr_zero(static_cast<unsigned>(hosts));
    for (int i = 0; i < hosts; ++i) {
      int reversed = 0;
      for (int b = 0; b < bits; ++b) reversed |= ((i >> b) & 1) << (bits - 1 - b);
      add(tm, i, reversed);
    }
  } else if (name == "transpose") {
    const int side = static_cast<int>(std::lround(std::sqrt(hosts)));
    for (int i = 0; i < hosts; ++i) add(tm, i, (i % side) * side + i / side);
  } else if (name == "permutation") {
    const std::vector<int> target = random_order(hosts, rng);
    for (int i = 0; i < hosts; ++i) add(tm, i, target[i]);
  } else if (name == "all-to-all") {
    std::vector<int> all(hosts);
    std::iota(all.begin(), all.end(), 0);
    add_all_to_all(tm, all);
  } else if (name == "uniform") {
    for (int i = 0; i < hosts; ++i)
      for (int j = 0; j < hosts; ++j)
        if (i != j && draw_unit(rng) < spec.params[0]) add(tm, i, j);
  } else if (name == "ring") {
    const std::vector<int> place = random_order(hosts, rng);
    if (hosts == 2) add_exchange(tm, place, 0, 1);
    if (hosts > 2)
      for (int x = 0; x < hosts; ++x) add_exchange(tm, place, x, (x + 1) % hosts);
  } else if (name == "mesh2d" || name == "mesh3d" || name == "torus2d" || name == "torus3d") {
    const int dims = name.find('2') != std::string::npos ? 2 : 3;
    mesh(tm, random_order(hosts, rng), mesh_sides(hosts, dims), name.starts_with("torus"));
  } else if (name == "hypercube") {
    const std::vector<int> place = random_order(hosts, rng);
    for (int x = 0; x < hosts; ++x)
      for (int bit = 1; bit < hosts; bit <<= 1) add(tm, place[x], place[x ^ bit]);
  } else if (name == "binary-tree") {
    const std::vector<int> place = random_order(hosts, rng);
    for (int x = 1; x < hosts; ++x) add_exchange(tm, place, x, (x - 1) / 2);
  } else if (name == "clustered") {
    const int size = static_cast<int>(spec.params[0]);
    const std::vector<int> order = random_order(hosts, rng);
    for (int first = 0; first < hosts; first += size)
      add_all_to_all(tm, std::vector<int>(order.begin() + first, order.begin() + first + size));
  } else if (name == "hot-spot") {
    const long count = static_cast<long>(spec.params[0]), size = static_cast<long>(spec.params[1]);
    const std::vector<int> order = random_order(hosts, rng);
    for (long first = 0; first < count * size; first += size)
      add_all_to_all(tm, std::vector<int>(order.begin() + first, order.begin() + first + size));
  } else if (name == "bisection") {
    // Random halves (the shuffled order's two halves), paired position by position.
    const std::vector<int> order = random_order(hosts, rng);
    for (int i = 0; i < hosts / 2; ++i) {
      add(tm, order[i], order[hosts / 2 + i]);
      add(tm, order[hosts / 2 + i], order[i]);
    }
  }
  return tm;
}

}  // namespace

Result<PatternSpec> parse_pattern(std::string_view text) {
  const size_t colon = text.find(':');
  PatternSpec spec{std::string(text.substr(0, colon)), {}, std::string(text)};
  const PatternDef* def = find_definition(spec.name);
  if (!def)
    return Status::Error(fmt::format("unknown pattern \"{}\"; known patterns: {}", spec.name, known_names()));
  if (colon != std::string_view::npos) {
    for (std::string_view field : split(text.substr(colon + 1), ',')) {
      double value = 0;
      if (!parse_number(field, value))
        return Status::Error(fmt::format("pattern \"{}\": \"{}\" is not a number", text, field));
      spec.params.push_back(value);
    }
  }
  const int given = static_cast<int>(spec.params.size());
  if (given < def->min_params || given > def->max_params)
    return Status::Error(fmt::format("pattern \"{}\": write it as {}", text, def->help.usage));
  if (Status status = check_params(spec); !status.ok()) return status;
  return spec;
}

Status pattern_fits(const PatternSpec& spec, int hosts) {
  if (hosts < 2) return Status::Error(fmt::format("a traffic pattern needs at least 2 hosts, have {}", hosts));
  const std::string& name = spec.name;
  if (name == "bit-reversal" || name == "hypercube") return need_power_of_two(spec, hosts);
  if (name == "transpose") {
    const int side = static_cast<int>(std::lround(std::sqrt(hosts)));
    if (side * side != hosts)
      return Status::Error(fmt::format("pattern \"transpose\" needs a square host count, have {}", hosts));
  }
  if (name == "clustered" && hosts % static_cast<int>(spec.params[0]) != 0)
    return Status::Error(fmt::format("pattern \"{}\": the group size must divide the {} hosts", spec.text, hosts));
  if (name == "hot-spot") {
    const long count = static_cast<long>(spec.params[0]), size = static_cast<long>(spec.params[1]);
    if (count * size > hosts)
      return Status::Error(fmt::format("pattern \"{}\": {} hot spots of {} need {} hosts, have {}", spec.text, count,
                                       size, count * size, hosts));
  }
  return Status::Ok();
}

Result<TrafficMatrix> make_pattern(const PatternSpec& pattern, int hosts, uint64_t seed) {
  if (Status status = pattern_fits(pattern, hosts); !status.ok()) return status;
  std::mt19937_64 rng(seed);
  return build(pattern, hosts, rng);
}

bool is_random_pattern(const PatternSpec& pattern) {
  const PatternDef* def = find_definition(pattern.name);
  return def && def->random;
}

const std::vector<PatternHelp>& pattern_help() {
  static const std::vector<PatternHelp> help = [] {
    std::vector<PatternHelp> out;
    for (const PatternDef& def : definitions()) out.push_back(def.help);
    return out;
  }();
  return help;
}

std::vector<int> mesh_sides(int hosts, int dims) {
  if (dims <= 1) return {hosts};
  // The smallest side is the largest divisor not above the dims-th root; the
  // rest is split the same way.
  int first = 1;
  for (int a = 1; static_cast<long>(std::pow(a, dims)) <= hosts; ++a)
    if (hosts % a == 0) first = a;
  std::vector<int> sides = mesh_sides(hosts / first, dims - 1);
  sides.insert(sides.begin(), first);
  return sides;
}

}  // namespace ftclos
