#include "schemes/label_routing.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/workers.h"
#include "paths/contention_polish.h"
#include "paths/detour_layers.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

// The ports of a labeled switch by slot: up[j] for j = b + k*w (parent b,
// k-th parallel cable), down[a*p + k] for child a; kNoPath where the cable
// is missing. A cable joining labels that are no neighbours is miswired and
// not used.
struct SlotPorts {
  std::vector<uint8_t> up, down;
};

SlotPorts slot_ports(const Fabric& fabric, const Levels& levels, const XgftLabels& labels, int x) {
  const XgftShape& s = labels.shape;
  const int l = levels.of[x];
  const int up_w = l < s.h ? s.w[l] : 0, up_p = l < s.h ? s.p[l] : 0;
  SlotPorts out{std::vector<uint8_t>(up_w * up_p, kNoPath), std::vector<uint8_t>(s.m[l - 1] * s.p[l - 1], kNoPath)};
  std::vector<int> up_seen(up_w, 0), down_seen(s.m[l - 1], 0);
  const std::vector<int>& here = labels.digits[x];
  const Node& node = fabric.node(x);
  for (int p = 1; p <= node.num_ports; ++p) {
    const PortRef peer = node.ports[p].peer;
    if (!peer.valid() || labels.digits[peer.node].empty()) continue;
    const std::vector<int>& d = labels.digits[peer.node];
    const int pos = levels.of[peer.node] == l - 1 ? l : levels.of[peer.node] == l + 1 ? l + 1 : 0;
    bool fits = pos > 0;
    for (int i = 1; i <= s.h && fits; ++i) fits = i == pos || d[i - 1] == here[i - 1];
    if (!fits) continue;
    const int digit = d[pos - 1];
    if (pos == l + 1 && up_seen[digit] < up_p) out.up[digit + up_seen[digit]++ * up_w] = static_cast<uint8_t>(p);
    if (pos == l && down_seen[digit] < s.p[l - 1])
      out.down[digit * s.p[l - 1] + down_seen[digit]++] = static_cast<uint8_t>(p);
  }
  return out;
}

// Mixed-radix code of the digits above `level` (the sub-tree a node is in).
long subtree_key(const XgftShape& s, const std::vector<int>& digits, int level) {
  long key = 0;
  for (int i = s.h; i > level; --i) key = key * s.m[i - 1] + digits[i - 1];
  return key;
}

// Writes `port` to a CA's 2^lmc entries; the common small ranges as single
// stores (a memset call per CA costs more than the routing itself).
void fill_range(uint8_t* entry, int offsets, uint8_t port) {
  switch (offsets) {
    case 1: entry[0] = port; return;
    case 2: { const uint16_t both = port * 0x0101u; std::memcpy(entry, &both, sizeof both); return; }
    case 4: { const uint32_t all = port * 0x01010101u; std::memcpy(entry, &all, sizeof all); return; }
    default: std::fill_n(entry, offsets, port);
  }
}

// Switch LIDs in closed form (labeled switches; what a degraded fabric
// breaks, repair_dead_ports moves). Switch x reaches switch S
// going up then down iff their digits agree below both levels (up moves
// never change x's lower digits); then it goes down where S is below it and
// up otherwise, fixing S's b digits on the way. Without such a path (two
// roots, say) it goes down, into S's sub-tree where S lies below, until one
// exists: a shortest detour, for management traffic only. `spread`: per
// target, its code, to spread free choices.
void route_switch_lids_of(const RoutingInput& in, const SlotPorts& ports, const std::vector<int>& targets,
                          const std::vector<long>& spread, int x, std::vector<uint8_t>& table) {
  const XgftLabels& labels = *in.detection.xgft;
  const XgftShape& s = labels.shape;
  const std::vector<int>& level = in.detection.levels.of;
  const std::vector<int>& dx = labels.digits[x];
  const int lx = level[x];
  for (int t : targets) {
    uint8_t& entry = table[in.lids.base[t]];
    if (t == x) {
      entry = 0;
      continue;
    }
    const std::vector<int>& ds = labels.digits[t];
    const int ls = level[t];
    bool low_match = true;
    for (int i = 1; i <= std::min(lx, ls) && low_match; ++i) low_match = dx[i - 1] == ds[i - 1];
    bool above = lx > ls && low_match;
    for (int i = lx + 1; i <= s.h && above; ++i) above = dx[i - 1] == ds[i - 1];
    if (above) {
      entry = ports.down[ds[lx - 1] * s.p[lx - 1]];
    } else if (low_match && lx < s.h) {
      const long slot = lx + 1 <= ls ? ds[lx] : spread[t] % (s.w[lx] * s.p[lx]);
      entry = ports.up[slot];
    } else {  // toward S's sub-tree where S lies below, so the detour stays shortest
      const long child = lx > ls ? ds[lx - 1] : spread[t] % s.m[lx - 1];
      entry = ports.down[child * s.p[lx - 1]];
    }
  }
}

// Every labeled switch's entries for the switch LIDs; each switch writes its
// own table, so blocks of switches go to threads.
void route_switch_lids_by_labels(const RoutingInput& in, const std::vector<SlotPorts>& ports, Lfts& lfts) {
  const XgftLabels& labels = *in.detection.xgft;
  std::vector<int> targets;
  std::vector<long> spread(in.fabric.size());
  for (int t = 0; t < in.fabric.size(); ++t) {
    if (!in.fabric.node(t).is_switch() || in.lids.base[t] == 0 || labels.digits[t].empty()) continue;
    targets.push_back(t);
    spread[t] = labels.code(in.detection.levels.of[t], labels.digits[t]);
  }
  std::vector<int> switches;
  for (int x = 0; x < in.fabric.size(); ++x)
    if (in.fabric.node(x).is_switch() && !labels.digits[x].empty()) switches.push_back(x);
  const long count = static_cast<long>(switches.size());
  for_each_block(count, worker_count(count), [&](int, long begin, long end) {
    for (long k = begin; k < end; ++k)
      route_switch_lids_of(in, ports[switches[k]], targets, spread, switches[k], lfts.port[switches[k]]);
  });
}

}  // namespace

long full_classes(const std::vector<int>& values) {
  long full = 1;
  for (size_t l = 1; l < values.size(); ++l) full *= values[l];
  return full;
}

DigitClasses::DigitClasses(const std::vector<int>& values, int lids_per_ca)
    : full(full_classes(values)), radix(values.size(), 1), place(values.size(), 1) {
  for (size_t l = 1; l < values.size(); ++l) {
    radix[l] = std::max(1, std::min(values[l], lids_per_ca / classes));
    place[l] = classes;
    classes *= radix[l];
  }
}

int DigitClasses::class_of(const std::vector<int>& source) const {
  int c = 0;
  for (size_t l = 1; l < radix.size(); ++l) c += source[l - 1] % radix[l] * place[l];
  return c;
}

Status require_tree_labels(const Detection& detection, std::string_view scheme) {
  if (!detection.xgft) return Status::Error(fmt::format("{}: the fabric is no fat-tree (no PGFT labels)", scheme));
  const XgftShape& s = detection.xgft->shape;
  if (s.w[0] != 1 || s.p[0] != 1)
    return Status::Error(fmt::format(
        "{}: needs every host on one leaf over one cable (w1 = p1 = 1), has w1 = {}, p1 = {}", scheme, s.w[0], s.p[0]));
  return Status::Ok();
}

int up_slots(const XgftShape& shape, int level) { return shape.w[level] * shape.p[level]; }

long dmodk_up_slot(const XgftLabels& labels, int level, const std::vector<int>& dest, int offset) {
  const XgftShape& s = labels.shape;
  long below = 1;  // w_1 ... w_l
  for (int l = 1; l <= level; ++l) below *= s.w[l - 1];
  return (labels.code(0, dest) + offset) / below % up_slots(s, level);
}

int class_lids(const RoutingInput& input) {
  const int lids = input.lids.lids_per_ca();
  return input.path_bits_users == PathBitsUsers::kAll || lids == 1 ? lids : lids - 1;
}

int lmc_for_classes(long classes, PathBitsUsers users) {
  return classes <= 1 ? 0 : ceil_log2(users == PathBitsUsers::kAll ? classes : classes + 1);
}

int ceil_log2(long n) {
  int bits = 0;
  while ((1L << bits) < n) ++bits;
  return bits;
}

namespace {

Routing route_by_rule(const RoutingInput& in, const LabelRule& rule) {
  const XgftLabels& labels = *in.detection.xgft;
  const XgftShape& s = labels.shape;
  const LidMap& lids = in.lids;
  const std::vector<int>& level = in.detection.levels.of;
  const int h = s.h, classes = rule.classes, offsets = lids.lids_per_ca();
  Routing out;
  out.path_bits.assign(in.fabric.size(), 0);
  out.lfts.port.assign(in.fabric.size(), {});

  // Per host, computed once rather than per switch, in flat arrays (the fill
  // below is the hot loop of routing a large fabric): its base LID, and per
  // level its sub-tree key, its digit and its up slot per class.
  std::vector<int> hosts;
  int unlabeled = 0;
  for (int t = 0; t < in.fabric.size(); ++t) {
    unlabeled += labels.digits[t].empty();
    if (in.fabric.node(t).is_switch() || labels.digits[t].empty()) continue;
    out.path_bits[t] = rule.class_of(labels.digits[t]) % offsets;
    if (lids.base[t] != 0) hosts.push_back(t);
  }
  const size_t n = hosts.size();
  std::vector<int> base(n);
  std::vector<std::vector<long>> key(h + 1, std::vector<long>(n));
  std::vector<std::vector<int>> digit(h + 1, std::vector<int>(n)), slot(h + 1, std::vector<int>(n * classes));
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int>& d = labels.digits[hosts[i]];
    base[i] = lids.base[hosts[i]];
    for (int l = 1; l <= h; ++l) {
      key[l][i] = subtree_key(s, d, l);
      digit[l][i] = d[l - 1];
      if (l < h)
        for (int c = 0; c < classes; ++c) slot[l][i * classes + c] = static_cast<int>(rule.up_slot(l, c, d));
    }
  }

  std::vector<int> class_of_offset(offsets);
  for (int o = 0; o < offsets; ++o) class_of_offset[o] = o % classes;

  // Every switch's table depends on the shared per-host arrays only: blocks
  // of switches go to threads, and each thread counts its own holes.
  std::vector<int> switches;
  for (int x = 0; x < in.fabric.size(); ++x)
    if (in.fabric.node(x).is_switch()) switches.push_back(x);
  std::vector<SlotPorts> ports(in.fabric.size());
  const int workers = worker_count(static_cast<long>(switches.size()));
  std::vector<long> holes_of(workers, 0);  // CA entries without a port: the fabric lacks what the rule needs
  for_each_block(static_cast<long>(switches.size()), workers, [&](int w, long begin, long end) {
    // Copies of what the lambda reaches by reference: the tables are written
    // as bytes, which may alias anything, so only locals stay in registers.
    const size_t hosts = n;
    const int rule_classes = classes, lids_per_ca = offsets;
    const int* base_lid = base.data();
    const int* class_of = class_of_offset.data();
    for (long k = begin; k < end; ++k) {
      const int x = switches[k];
      std::vector<uint8_t>& lft = out.lfts.port[x];
      lft.assign(lids.max_lid + 1, kNoPath);
      if (labels.digits[x].empty()) continue;
      ports[x] = slot_ports(in.fabric, in.detection.levels, labels, x);
      const uint8_t* up = ports[x].up.data();
      const uint8_t* down = ports[x].down.data();
      const int l = level[x];
      const long mine = subtree_key(s, labels.digits[x], l);
      const int parallel = s.p[l - 1], below_w = s.w[l - 1];
      const long* key_l = key[l].data();
      const int* digit_l = digit[l].data();
      const int* slot_up = slot[l].data();
      const int* slot_below = slot[l - 1].data();
      uint8_t* table = lft.data();
      for (size_t i = 0; i < hosts; ++i) {
        uint8_t* entry = table + base_lid[i];
        if (rule_classes == 1) {  // destination-only: one port for the whole LID range
          const uint8_t port = key_l[i] == mine ? down[digit_l[i] * parallel + (l > 1 ? slot_below[i] / below_w : 0)]
                                                : up[slot_up[i]];
          fill_range(entry, lids_per_ca, port);
        } else if (key_l[i] == mine) {
          // Over the parallel cable the CA's own up slot one level lower uses.
          const uint8_t* child = down + digit_l[i] * parallel;
          const int* slots = slot_below + i * rule_classes;
          for (int o = 0; o < lids_per_ca; ++o) entry[o] = child[l > 1 ? slots[class_of[o]] / below_w : 0];
        } else {
          const int* slots = slot_up + i * rule_classes;
          for (int o = 0; o < lids_per_ca; ++o) entry[o] = up[slots[class_of[o]]];
        }
      }
      // Holes only where a cable the rule uses is missing.
      const bool complete = std::find(ports[x].up.begin(), ports[x].up.end(), kNoPath) == ports[x].up.end() &&
                            std::find(ports[x].down.begin(), ports[x].down.end(), kNoPath) == ports[x].down.end();
      if (!complete)
        for (size_t i = 0; i < hosts; ++i)
          holes_of[w] += std::count(table + base_lid[i], table + base_lid[i] + lids_per_ca, kNoPath);
    }
  });
  long holes = 0;
  for (long h_w : holes_of) holes += h_w;
  // Switch LIDs by the same closed form on a degraded fabric too, so that a
  // failure moves only the entries it breaks (repair below), nothing else.
  route_switch_lids_by_labels(in, ports, out.lfts);
  if (holes == 0 && unlabeled == 0 && !in.detection.degraded()) return out;
  const UpDownReach reach(in.fabric, in.detection.levels);
  if (const int moved = repair_dead_ports(in, reach, out); moved > 0)
    out.notes.push_back(fmt::format("{} entries routed up/down where the labels give no port (missing cables, nodes without a label)", moved));
  layer_detours(in, reach, out);
  if (unlabeled > 0)
    out.notes.push_back(
        fmt::format("{} nodes have no fat-tree label; their LIDs follow up/down reachability only", unlabeled));
  return out;
}

// The rule with offset 0 taken by D-mod-k, class c moved to c + 1
// (route_by_labels in the header).
LabelRule with_dmodk_base(const XgftLabels& labels, const LabelRule& rule) {
  LabelRule out;
  out.classes = rule.classes + 1;
  out.class_of = [class_of = rule.class_of](const std::vector<int>& source) { return class_of(source) + 1; };
  out.up_slot = [&labels, up_slot = rule.up_slot](int level, int c, const std::vector<int>& dest) {
    return c == 0 ? dmodk_up_slot(labels, level, dest, 0) : up_slot(level, c - 1, dest);
  };
  return out;
}

}  // namespace

Routing route_by_labels(const RoutingInput& in, const LabelRule& given) {
  const bool dmodk_base = given.classes > 1 && in.path_bits_users == PathBitsUsers::kSome;
  const LabelRule rule = dmodk_base ? with_dmodk_base(*in.detection.xgft, given) : given;
  Routing out = route_by_rule(in, rule);
  // Offset 0 carries every host that does not know its path bits: polished
  // for them, as dmodk is, where damage or attached hosts left the labels.
  if (in.path_bits_users == PathBitsUsers::kSome &&
      (in.detection.degraded() || !in.detection.levels.io_hosts.empty())) {
    const UpDownReach reach(in.fabric, in.detection.levels);
    if (std::string note = polish_note(polish_contention(in, reach, out)); !note.empty())
      out.notes.push_back("offset 0: " + note);
  }
  return out;
}

}  // namespace ftclos
