// worst_case_contention (audit.h): per directed switch-to-switch channel,
// how many of its SD pairs one permutation can put on it at once -- the
// maximum bipartite matching between the pairs' sources and destinations
// (Towles and Dally) -- and the maximum over channels. On a full fat-tree
// that is the oblivious performance ratio: OPTU = baseload there (Yuan et
// al., Corollary 1), so a matching of X pairs is a permutation that loads
// the channel X times the optimum (Lemma 7), and no permutation does worse.
//
// Scale. FT(36,3) has ~136 M SD pairs of ~5 channels each; the (pair,
// channel) incidences are never built. Per destination LID the column walk
// (audit_walk.h) gives an in-tree, and a channel's senders for that LID are
// the sender groups (CAs sharing entry switch and LID offset) in the
// sub-tree under it. Sub-trees are hash-consed into a DAG of multisets of
// groups (SetStore): equal part lists get one id, so the destinations of a
// channel whose senders are identical form one class with a count. A
// channel is then a small bipartite graph, groups (capacity: their CAs) x
// classes (capacity: their destinations), and its matching a max flow on it,
// exact because the members of a group, and of a class, have identical
// neighbours. Only delivered routes count. Most channels are settled by a
// greedy flow reaching min(|S|, |D|); the rest by Dinic.
//
// kAllOffsets: a pair's weight on a channel is (its offsets crossing it) /
// 2^lmc, a class is the multiset sum of its offsets' sub-trees, and the
// matching a maximum-weight b-matching: the greedy (heaviest first) when it
// meets min(sum over groups of CAs x heaviest edge, same over classes) or the
// graph has one side of one node, else min-cost flow; only a graph past
// kMaxWeightedArcs falls back to that upper bound, with exact = false.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <mutex>
#include <numeric>
#include <shared_mutex>
#include <span>

#include "audit/audit_walk.h"
#include "core/bipartite_matching.h"

namespace ftclos {
namespace {

// ---- Hash-consed multisets of sender groups ----

// Id g < atoms is group g itself; every other id the sum of two or more
// parts (smaller ids), stored sorted. Thread-safe interning.
class SetStore {
 public:
  explicit SetStore(int atoms) : atoms_(atoms), table_(1 << 12, -1) { begin_.push_back(0); }

  /// The id of the sum of `parts`, sorted ascending; a single part is itself.
  int intern_sorted(const std::vector<int>& parts) {
    if (parts.size() == 1) return parts[0];
    const uint64_t h = hash(parts);
    {
      std::shared_lock lock(mutex_);
      if (const int id = find(parts, h); id >= 0) return id;
    }
    std::unique_lock lock(mutex_);
    if (const int id = find(parts, h); id >= 0) return id;
    return insert(parts, h);
  }

  /// Adds the multiset of `id` to mult (per group), listing the groups it raises from 0 in `touched`.
  void expand(int id, std::vector<int>& mult, std::vector<int>& touched, std::vector<int>& stack) const {
    stack.assign(1, id);
    while (!stack.empty()) {
      const int top = stack.back();
      stack.pop_back();
      if (top < atoms_) {
        if (mult[top]++ == 0) touched.push_back(top);
        continue;
      }
      const std::span<const int> p = parts(top);
      stack.insert(stack.end(), p.begin(), p.end());
    }
  }

 private:
  static uint64_t hash(const std::vector<int>& parts) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ parts.size();
    for (int v : parts) {
      h ^= static_cast<uint64_t>(v) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xBF58476D1CE4E5B9ull;
    }
    return h ^ (h >> 31);
  }

  std::span<const int> parts(int id) const {
    const size_t i = static_cast<size_t>(id - atoms_);
    return {flat_.data() + begin_[i], flat_.data() + begin_[i + 1]};
  }

  int find(const std::vector<int>& parts_sorted, uint64_t h) const {
    for (size_t slot = h & (table_.size() - 1);; slot = (slot + 1) & (table_.size() - 1)) {
      const int id = table_[slot];
      if (id < 0) return -1;
      if (hashes_[id - atoms_] == h && std::ranges::equal(parts(id), parts_sorted)) return id;
    }
  }

  int insert(const std::vector<int>& parts_sorted, uint64_t h) {
    const int id = atoms_ + static_cast<int>(hashes_.size());
    flat_.insert(flat_.end(), parts_sorted.begin(), parts_sorted.end());
    begin_.push_back(flat_.size());
    hashes_.push_back(h);
    if (2 * hashes_.size() > table_.size()) {  // keep the table at most half full
      table_.assign(table_.size() * 2, -1);
      for (size_t i = 0; i < hashes_.size(); ++i) place(atoms_ + static_cast<int>(i));
    } else {
      place(id);
    }
    return id;
  }

  void place(int id) {
    size_t slot = hashes_[id - atoms_] & (table_.size() - 1);
    while (table_[slot] >= 0) slot = (slot + 1) & (table_.size() - 1);
    table_[slot] = id;
  }

  const int atoms_;
  std::vector<int> flat_;
  std::vector<size_t> begin_;
  std::vector<uint64_t> hashes_;
  std::vector<int> table_;  // open addressing, -1 = empty
  mutable std::shared_mutex mutex_;
};

// A per-worker memo in front of the store: a slot (switch, channel) tends to
// see the same part list again and again, and a hit needs no lock.
class CachedInterner {
 public:
  CachedInterner(SetStore& store, int slots) : store_(store), parts_(slots), ids_(slots, -1) {}

  int intern(int slot, std::vector<int>& parts) {
    std::ranges::sort(parts);
    if (ids_[slot] >= 0 && parts_[slot] == parts) return ids_[slot];
    parts_[slot] = parts;
    return ids_[slot] = store_.intern_sorted(parts);
  }

 private:
  SetStore& store_;
  std::vector<std::vector<int>> parts_;
  std::vector<int> ids_;
};

// ---- Pass 1: per destination, the class of its senders on every channel ----

struct Tally {
  int channel = 0;
  int cls = 0;    // a SetStore id: the multiset of the destination's senders on the channel
  long count = 0; // destinations with that class
};

// One worker's walk over a block of destinations. Either tallies every
// channel, or (`watch` >= 0) lists the destinations crossing one channel.
class Collector {
 public:
  Collector(const AuditInput& in, const LftColumns& columns, const Senders& senders, const ChannelIndex& channels,
            SetStore& store, int watch)
      : in_(in), senders_(senders), channels_(channels), watch_(watch),
        engine_(in.fabric, in.levels, in.lids, columns), subtrees_(store, in.fabric.size()),
        classes_(store, channels.size()), kids_(in.fabric.size()), on_watch_(in.fabric.size(), false),
        last_class_(watch < 0 ? channels.size() : 0, -1), run_(last_class_.size(), 0) {}

  void add_destination(int d) {
    crossings_.clear();
    for (size_t k = 0; k < senders_.offsets.size(); ++k) {
      const int lid = in_.lids.base[d] + senders_.offsets[k];
      if (lid >= static_cast<int>(in_.lids.owner.size()) || in_.lids.owner[lid] != d) continue;
      engine_.walk(lid);
      if (watch_ >= 0 && !mark_watched()) continue;
      add_column(k);
    }
    // Offsets of d crossing one channel add up to its class there.
    std::ranges::sort(crossings_);
    for (size_t i = 0; i < crossings_.size();) {
      size_t j = i;
      parts_.clear();
      for (; j < crossings_.size() && crossings_[j].first == crossings_[i].first; ++j)
        parts_.push_back(crossings_[j].second);
      const int channel = crossings_[i].first;
      const int cls = classes_.intern(channel, parts_);
      if (watch_ >= 0) {
        watched_.push_back({cls, d});
      } else {
        tally(channel, cls);
      }
      i = j;
    }
  }

  /// The tallies so far, run-length merged per channel.
  std::vector<Tally> finish() {
    for (int c = 0; c < static_cast<int>(run_.size()); ++c)
      if (run_[c] > 0) tallies_.push_back({c, last_class_[c], run_[c]});
    return std::move(tallies_);
  }
  /// (class, destination) on the watched channel, in order of addition.
  const std::vector<std::pair<int, int>>& watched() const { return watched_; }

 private:
  // The in-tree of this column bottom-up: each delivering switch's sub-tree
  // is its own groups plus its children's sub-trees.
  void add_column(size_t k) {
    for (int x : engine_.delivered_farthest_first()) {
      if (watch_ >= 0 && !on_watch_[x]) continue;
      std::vector<int>& parts = kids_[x];
      for (int g : senders_.groups_at[x])
        if (senders_.groups[g].sends_on(senders_.offsets[k])) parts.push_back(g);
      const Step& step = engine_.at(x);
      if (!parts.empty() && step.next >= 0) {
        const int id = subtrees_.intern(x, parts);
        const int channel = channels_.of({x, step.port});
        if (watch_ < 0 || channel == watch_) crossings_.push_back({channel, id});
        if (watch_ < 0 || on_watch_[step.next]) kids_[step.next].push_back(id);
      }
      parts.clear();
    }
  }

  // Marks the switches whose route passes the watched channel; false when none does.
  bool mark_watched() {
    const PortRef channel = channels_.at(watch_);
    const std::vector<int>& order = engine_.delivered_farthest_first();
    bool any = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // nearest first: next before x
      const Step& step = engine_.at(*it);
      on_watch_[*it] = (*it == channel.node && step.port == channel.port) || (step.next >= 0 && on_watch_[step.next]);
      any |= on_watch_[*it];
    }
    return any;
  }

  void tally(int channel, int cls) {
    if (last_class_[channel] != cls) {
      if (run_[channel] > 0) tallies_.push_back({channel, last_class_[channel], run_[channel]});
      last_class_[channel] = cls;
      run_[channel] = 0;
    }
    ++run_[channel];
  }

  const AuditInput& in_;
  const Senders& senders_;
  const ChannelIndex& channels_;
  const int watch_;
  PathEngine engine_;
  CachedInterner subtrees_;  // slots: switches
  CachedInterner classes_;   // slots: channels
  std::vector<std::vector<int>> kids_;  // per switch: sub-tree ids of its children in this column
  std::vector<bool> on_watch_;
  std::vector<std::pair<int, int>> crossings_;  // (channel, sub-tree id) of the current destination
  std::vector<int> parts_;
  std::vector<int> last_class_;
  std::vector<long> run_;
  std::vector<Tally> tallies_;
  std::vector<std::pair<int, int>> watched_;
};

// One channel's classes as a bipartite graph; fills the link's counts.
class ChannelGraphs {
 public:
  ChannelGraphs(const SetStore& store, const Senders& senders)
      : store_(store), senders_(senders), mult_(senders.groups.size(), 0), local_(senders.groups.size(), -1) {}

  /// `classes` as (class, destinations); `groups` gets the group of each left node.
  Bipartite build(std::span<const Tally> classes, LinkLoad& link, std::vector<int>& groups) {
    Bipartite g;
    groups.clear();
    for (const Tally& cls : classes) {
      const int right = static_cast<int>(g.right_cap.size());
      g.right_cap.push_back(cls.count);
      touched_.clear();
      store_.expand(cls.cls, mult_, touched_, stack_);
      std::ranges::sort(touched_);
      long senders = 0;
      for (int group : touched_) {
        if (local_[group] < 0) {
          local_[group] = static_cast<int>(groups.size());
          groups.push_back(group);
          g.left_cap.push_back(static_cast<long>(senders_.groups[group].members.size()));
        }
        g.edges.push_back({local_[group], right, mult_[group]});
        senders += g.left_cap[local_[group]];
        mult_[group] = 0;
      }
      link.pairs += senders * cls.count;
      link.destinations += static_cast<int>(cls.count);
    }
    for (int group : groups) {
      link.sources += static_cast<int>(senders_.groups[group].members.size());
      local_[group] = -1;
    }
    return g;
  }

 private:
  const SetStore& store_;
  const Senders& senders_;
  std::vector<int> mult_, local_, touched_, stack_;
};

// A matching of actual CAs from the flow of the worst channel: groups and
// classes are interchangeable members, so any members fill each flow.
std::vector<std::pair<int, int>> witness_pairs(const Bipartite& g, const Matching& solution,
                                               const std::vector<int>& groups, const Senders& senders,
                                               const std::vector<std::vector<int>>& class_destinations) {
  std::vector<size_t> used_left(g.left_cap.size(), 0), used_right(g.right_cap.size(), 0);
  std::vector<std::pair<int, int>> out;
  for (size_t e = 0; e < g.edges.size(); ++e) {
    const Bipartite::Edge& edge = g.edges[e];
    for (long k = 0; k < solution.flow[e]; ++k)
      out.push_back({senders.groups[groups[edge.left]].members[used_left[edge.left]++],
                     class_destinations[edge.right][used_right[edge.right]++]});
  }
  std::ranges::sort(out);
  return out;
}

}  // namespace

namespace {

// What the steps share: the senders, the channel numbering, the store of
// source sets and whether pairs are weighted by their offsets.
struct ContentionRun {
  const AuditInput& input;
  const LftColumns columns;
  const Senders senders;
  const ChannelIndex channels;
  const bool weighted;
  const double scale;
  SetStore store;

  explicit ContentionRun(const AuditInput& in)
      : input(in),
        columns(in.fabric, in.lfts),
        senders(group_senders(in, in.offsets, true)),
        channels(in.fabric),
        weighted(in.offsets.mode == OffsetChoice::Mode::kAllOffsets),
        scale(weighted ? in.lids.lids_per_ca() : 1.0),
        store(static_cast<int>(senders.groups.size())) {}

  long destinations() const { return static_cast<long>(senders.cas.size()); }
};

// Tallies of (channel, class, destinations) over every destination, merged
// per (channel, class) and sorted by channel.
std::vector<Tally> tally(ContentionRun& run) {
  const int workers = worker_count(run.destinations());
  std::vector<std::vector<Tally>> shares(workers);
  for_each_block(run.destinations(), workers, [&](int w, long begin, long end) {
    Collector collector(run.input, run.columns, run.senders, run.channels, run.store, -1);
    for (long i = begin; i < end; ++i) collector.add_destination(run.senders.cas[i]);
    shares[w] = collector.finish();
  });
  std::vector<Tally> tallies;
  for (std::vector<Tally>& share : shares) {
    tallies.insert(tallies.end(), share.begin(), share.end());
    std::vector<Tally>().swap(share);
  }
  std::ranges::sort(tallies, {}, [](const Tally& t) { return std::pair{t.channel, t.cls}; });
  size_t merged = 0;
  for (const Tally& t : tallies) {
    if (merged > 0 && tallies[merged - 1].channel == t.channel && tallies[merged - 1].cls == t.cls) {
      tallies[merged - 1].count += t.count;
    } else {
      tallies[merged++] = t;
    }
  }
  tallies.resize(merged);
  return tallies;
}

// The matching of every channel with traffic: out.links, the worst channel
// and its value, and the notes on weights and bounds.
void match(ContentionRun& run, const std::vector<Tally>& tallies, Contention& out) {
  std::vector<size_t> starts;  // per channel with traffic: its first tally; then the end
  for (size_t i = 0; i < tallies.size(); ++i)
    if (i == 0 || tallies[i].channel != tallies[i - 1].channel) starts.push_back(i);
  starts.push_back(tallies.size());
  const long loaded = static_cast<long>(starts.size()) - 1;
  out.links.resize(loaded);
  std::vector<long> values(loaded, 0);
  std::vector<char> exact(loaded, 1);
  for_each_block(loaded, worker_count(loaded), [&](int, long begin, long end) {
    ChannelGraphs graphs(run.store, run.senders);
    std::vector<int> groups;
    for (long i = begin; i < end; ++i) {
      LinkLoad& link = out.links[i];
      link.channel = run.channels.at(tallies[starts[i]].channel);
      link.level = run.input.levels.of[link.channel.node];
      const Bipartite g = graphs.build({tallies.begin() + starts[i], tallies.begin() + starts[i + 1]}, link, groups);
      const Matching solution = max_matching(g, run.weighted);
      values[i] = solution.value;
      exact[i] = solution.exact;
      link.matching = solution.value / run.scale;
    }
  });
  long worst = -1;
  for (long i = 0; i < loaded; ++i) {
    if (values[i] > worst) {
      worst = values[i];
      out.worst_link = out.links[i].channel;
    }
    if (!exact[i] && out.exact) {
      out.exact = false;
      out.notes.push_back("some weighted channels were too large for min-cost flow: their matching is the upper bound "
                          "min(sum over sources, sum over destinations, of the heaviest pair weight)");
    }
  }
  if (run.weighted)
    out.notes.push_back(fmt::format("weighted: a pair counts (its offsets crossing the channel) / {} per channel",
                                    run.input.lids.lids_per_ca()));
  if (worst > 0) out.worst_case = worst / run.scale;
}

// A permutation reaching the worst case: which destinations each class of the
// worst channel holds, then a matching of actual CAs.
std::vector<std::pair<int, int>> witness(ContentionRun& run, const std::vector<Tally>& tallies, PortRef worst_link) {
  const int watch = run.channels.of(worst_link);
  std::vector<std::vector<std::pair<int, int>>> found(worker_count(run.destinations()));
  for_each_block(run.destinations(), static_cast<int>(found.size()), [&](int w, long begin, long end) {
    Collector collector(run.input, run.columns, run.senders, run.channels, run.store, watch);
    for (long i = begin; i < end; ++i) collector.add_destination(run.senders.cas[i]);
    found[w] = collector.watched();
  });
  const auto first = std::ranges::lower_bound(tallies, watch, {}, &Tally::channel);
  std::vector<Tally> classes(first, std::ranges::upper_bound(tallies, watch, {}, &Tally::channel));
  std::vector<std::vector<int>> class_destinations(classes.size());
  for (const std::vector<std::pair<int, int>>& block : found)
    for (const auto& [cls, d] : block) {
      const auto it = std::ranges::lower_bound(classes, cls, {}, &Tally::cls);
      if (it != classes.end() && it->cls == cls) class_destinations[it - classes.begin()].push_back(d);
    }
  // Classes in order of their first destination, so the witness does not depend on ids.
  std::vector<int> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  std::ranges::sort(order, {}, [&](int c) {
    return class_destinations[c].empty() ? std::numeric_limits<int>::max() : class_destinations[c].front();
  });
  std::vector<Tally> ordered;
  std::vector<std::vector<int>> ordered_destinations;
  for (int c : order) {
    ordered.push_back(classes[c]);
    ordered_destinations.push_back(std::move(class_destinations[c]));
  }
  ChannelGraphs graphs(run.store, run.senders);
  LinkLoad scratch;
  std::vector<int> groups;
  const Bipartite g = graphs.build(ordered, scratch, groups);
  const Matching solution = max_matching(g, run.weighted);
  if (!solution.exact) return {};
  return witness_pairs(g, solution, groups, run.senders, ordered_destinations);
}

}  // namespace

Contention worst_case_contention(const AuditInput& input) {
  ContentionRun run(input);
  const std::vector<Tally> tallies = tally(run);
  Contention out;
  match(run, tallies, out);
  if (out.worst_case > 0) out.witness = witness(run, tallies, out.worst_link);
  return out;
}

double worst_case_value(const AuditInput& input) {
  ContentionRun run(input);
  Contention out;
  match(run, tally(run), out);
  return out.worst_case;
}

}  // namespace ftclos
