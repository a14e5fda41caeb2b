// polish_contention (contention_polish.h). Per destination the routes form
// an in-tree, so the pairs a channel (X, port) carries for destination d are
// the sources whose entry switch's path to d passes X: one bit set of entry
// switches per (destination, switch). Moving d's entry at X moves X's set
// off the old path after X and onto the new one; only the channels out of
// X and out of the switches on either path change pairs.
#include "paths/contention_polish.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "core/aggregation_node.h"
#include "core/bipartite_matching.h"
#include "core/random.h"
#include "paths/detour_layers.h"

namespace ftclos {
namespace {

// What a move is judged by, compared lexicographically. The pairs the
// channels at the worst case carry let the climb cross plateaus of the
// matching, which may fall only after several moves: on clos2 4+4 r=8
// with storage on the spines, a leaf's cable up to a spine whose storage
// detours turn there stays above 4 while more than 2 of the leaf's compute
// destinations take it (worst case 5 without this key, 4 with it).
struct Score {
  long worst = 0;
  long at_worst = 0;        // channels at the worst case
  long pairs_at_worst = 0;  // (source, destination) pairs those channels carry
  long sum_squares = 0;     // over every channel's matching
  auto operator<=>(const Score&) const = default;
};

// One channel's figures.
struct Load {
  long matching = 0;
  long pairs = 0;  // (source CA, destination) pairs routed over it
};

struct Move {
  int dest = 0;  // index into Polisher::dests_
  int at = 0;    // switch node
  uint8_t port = 0;
  bool siblings = false;  // the switches that share `at`'s next hop for dest move too
};

// What moves change, apart from the LFTs: copied to keep the best tables found.
struct State {
  std::vector<uint64_t> sets;              // [dest][switch index][word]: entry switches whose path to dest passes the switch
  std::vector<std::vector<int>> dests_on;  // per channel: destinations whose entry at its switch takes it
  std::vector<Load> load;                  // per channel
  std::vector<long> histogram;             // channels per matching value
  std::vector<long> pairs_by_value;        // per matching value: pairs its channels carry
  long sum_squares = 0;
  std::vector<uint8_t> dest_sl;            // per LID, as Routing::dest_sl (moves may change it)
};

class Polisher {
 public:
  Polisher(const RoutingInput& input, PolishRules& rules, Lfts& lfts, const std::vector<uint8_t>& dest_sl)
      : fabric_(input.fabric), rules_(rules), lfts_(lfts) {
    state_.dest_sl = dest_sl;
    collect_endpoints(input);
    number_channels();
    collect_options();
    trace_all();
  }

  Score score() const {
    Score s;
    s.sum_squares = state_.sum_squares;
    for (long v = static_cast<long>(state_.histogram.size()) - 1; v > 0; --v)
      if (state_.histogram[v] > 0) return {v, state_.histogram[v], state_.pairs_by_value[v], state_.sum_squares};
    return s;
  }

  long work() const { return work_; }
  const std::vector<uint8_t>& dest_sl() const { return state_.dest_sl; }

  /// Iterated local search: climbs to a local optimum, then from the best
  /// tables found kicks a few entries feeding the worst channels to other
  /// legal ports and climbs again, until `kFruitlessRounds` rounds in a row
  /// lower neither the worst case nor the channels at it, or the budget is
  /// spent. Leaves the best tables.
  void search(const PolishLimits& limits, bool& budget_spent) {
    const long floor = destination_based_floor();
    if (score().worst <= floor) return;
    std::mt19937_64 rng(limits.seed);
    climb(limits, rng, budget_spent);
    State best = state_;
    std::vector<std::vector<uint8_t>> best_lfts = lfts_.port;
    Score best_score = score();
    for (int fruitless = 0; fruitless < kFruitlessRounds && !budget_spent && best_score.worst > floor; ++fruitless) {
      kick(rng);
      climb(limits, rng, budget_spent);
      if (score() < best_score) {
        // Only a lower worst case or fewer channels at it restart the count.
        if (std::pair{score().worst, score().at_worst} < std::pair{best_score.worst, best_score.at_worst})
          fruitless = -1;
        best = state_;
        best_lfts = lfts_.port;
        best_score = score();
      } else {
        state_ = best;
        lfts_.port = best_lfts;
      }
    }
    state_ = std::move(best);
    lfts_.port = std::move(best_lfts);
  }

 private:
  static constexpr int kFruitlessRounds = 12;
  static constexpr int kKickedEntries = 3;

  // Hill-climbs: the first candidate (in seeded order) that lowers the score, until none does.
  void climb(const PolishLimits& limits, std::mt19937_64& rng, bool& budget_spent) {
    for (;;) {
      std::vector<Move> candidates = candidates_at_worst();
      shuffle_in_place(candidates.begin(), candidates.end(), rng);
      bool improved = false;
      for (const Move& move : candidates) {
        if (work_ >= limits.max_work || (limits.cancel && limits.cancel->load(std::memory_order_relaxed))) {
          budget_spent = true;
          return;
        }
        if (try_move(move, false)) {
          improved = true;
          break;
        }
      }
      if (!improved) return;
    }
  }

  // Moves a few random entries that feed the worst channels, whatever the score.
  void kick(std::mt19937_64& rng) {
    std::vector<Move> candidates = candidates_at_worst();
    shuffle_in_place(candidates.begin(), candidates.end(), rng);
    int kicked = 0;
    for (const Move& move : candidates)
      if (kicked < kKickedEntries && lft(move.dest, move.at) != move.port && try_move(move, true)) ++kicked;
  }

  // No destination-based tables do better: all CAs on an entry switch send
  // a destination out of the same port, so the port carrying the most of
  // the d destinations outside, of u, sends ceil(d / u) from all k CAs.
  // Where the tables are at it (a real NDR pod: 19 CAs on a leaf, 19), the
  // search would only even out the channels at the worst case, its whole
  // budget (16 s in the plugin's sweep) for no lower figure.
  long destination_based_floor() const {
    long floor = 0;
    const long dests = static_cast<long>(dests_.size());
    for (size_t e = 0; e < entries_.size(); ++e) {
      const Node& node = fabric_.node(entries_[e]);
      long up = 0;
      for (int p = 1; p <= node.num_ports; ++p)
        up += node.ports[p].peer.valid() && switch_index_[node.ports[p].peer.node] >= 0;
      const long outside = dests - members_[e];
      if (up > 0 && outside > 0) floor = std::max(floor, std::min(members_[e], (outside + up - 1) / up));
    }
    return floor;
  }

  struct Dest {
    int lid = 0;
    Exit exit;         // exit.target hands packets to the CA
    bool movable = false;
  };

  // Sources by entry switch, destinations by LID.
  void collect_endpoints(const RoutingInput& input) {
    const std::vector<uint8_t>& dest_sl = state_.dest_sl;
    switch_index_.assign(fabric_.size(), -1);
    for (int x : rules_.switches()) {
      switch_index_[x] = static_cast<int>(switches_.size());
      switches_.push_back(x);
    }
    entry_bit_.assign(fabric_.size(), -1);
    for (int n = 0; n < fabric_.size(); ++n) {
      // ANs need routes, not bandwidth: the audit's contention leaves them out too.
      if (fabric_.node(n).is_switch() || input.lids.base[n] <= 0 || is_aggregation_node(fabric_.node(n))) continue;
      const Exit exit = exit_of(fabric_, n);
      if (exit.target < 0 || switch_index_[exit.target] < 0) continue;
      if (entry_bit_[exit.target] < 0) {
        entry_bit_[exit.target] = static_cast<int>(entries_.size());
        entries_.push_back(exit.target);
        members_.push_back(0);
      }
      ++members_[entry_bit_[exit.target]];
      const int lid = input.lids.base[n];
      const uint8_t sl = lid < static_cast<int>(dest_sl.size()) ? dest_sl[lid] : 0;
      dests_.push_back({lid, exit, rules_.movable(exit, sl)});
      dest_nodes_.push_back(n);
    }
    // By GUID, then name: the subnet names nodes by GUID, a file as it likes;
    // both must get the same tables (tests/unit/sweep_both_ways_test.cc).
    std::vector<int> by_guid(fabric_.size());
    std::iota(by_guid.begin(), by_guid.end(), 0);
    std::ranges::sort(by_guid, [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
    rank_.assign(fabric_.size(), 0);
    for (int i = 0; i < fabric_.size(); ++i) rank_[by_guid[i]] = i;
    words_ = (entries_.size() + 63) / 64;
    state_.sets.assign(dests_.size() * switches_.size() * words_, 0);
    state_.histogram.assign(dests_.size() + 1, 0);
    state_.pairs_by_value.assign(dests_.size() + 1, 0);
    local_.assign(entries_.size(), -1);
  }

  // Channels: switch ports cabled to a switch, densely.
  void number_channels() {
    first_channel_.assign(fabric_.size(), -1);
    int count = 0;
    for (int x : switches_) {
      first_channel_[x] = count;
      count += fabric_.node(x).num_ports + 1;
      channel_nodes_.resize(count, x);
    }
    state_.dests_on.resize(count);
    state_.load.assign(count, {});
    state_.histogram[0] = count;
  }

  int channel(int x, int port) const {
    const Node& node = fabric_.node(x);
    if (port < 1 || port > node.num_ports) return -1;
    const PortRef peer = node.ports[port].peer;
    if (!peer.valid() || switch_index_[peer.node] < 0) return -1;
    return first_channel_[x] + port;
  }

  // Per (destination, switch): the other best ports, where there are some.
  void collect_options() {
    options_.resize(dests_.size() * switches_.size());
    for (size_t s = 0; s < switches_.size(); ++s) {
      rules_.at_switch(switches_[s]);
      for (size_t d = 0; d < dests_.size(); ++d) {
        if (!dests_[d].movable || dests_[d].exit.target == switches_[s]) continue;
        std::vector<uint8_t> ports = rules_.ports(dests_[d].exit);
        ports.erase(std::unique(ports.begin(), ports.end()), ports.end());  // parallel cables: one port each
        if (ports.size() > 1) options_[d * switches_.size() + s] = std::move(ports);
      }
    }
  }

  uint64_t* set(size_t d, int x) { return &state_.sets[(d * switches_.size() + switch_index_[x]) * words_]; }

  int lft(size_t d, int x) const {
    const std::vector<uint8_t>& row = lfts_.port[x];
    return dests_[d].lid < static_cast<int>(row.size()) ? row[dests_[d].lid] : kNoPath;
  }

  // The switches from x to d's target, both included; false when the
  // entries do not get there (no route, a dead port, a loop).
  bool path(size_t d, int x, std::vector<int>& nodes) const {
    nodes.clear();
    for (int y = x; nodes.size() <= switches_.size(); ) {
      nodes.push_back(y);
      if (y == dests_[d].exit.target) return true;
      const int next = channel(y, lft(d, y));
      if (next < 0) return false;
      y = fabric_.node(y).ports[lft(d, y)].peer.node;
    }
    return false;
  }

  void trace_all() {
    std::vector<int> nodes;
    for (size_t d = 0; d < dests_.size(); ++d) {
      for (int e : entries_) {
        if (e == dests_[d].exit.target || !path(d, e, nodes)) continue;
        for (int y : nodes) set(d, y)[entry_bit_[e] / 64] |= uint64_t{1} << (entry_bit_[e] % 64);
      }
      for (int x : switches_)
        if (const int c = channel(x, lft(d, x)); c >= 0) state_.dests_on[c].push_back(static_cast<int>(d));
    }
    for (int c = 0; c < static_cast<int>(state_.load.size()); ++c)
      if (!state_.dests_on[c].empty()) set_load(c, contention(c));
  }

  // The matching of channel c: entry switches (their CAs) x destinations,
  // the destinations with the same entry switches on it as one node.
  Load contention(int c) {
    const int x = channel_nodes_[c];
    classes_.clear();
    for (int d : state_.dests_on[c]) {
      const uint64_t* bits = set(d, x);
      if (std::any_of(bits, bits + words_, [](uint64_t w) { return w != 0; })) classes_.push_back(bits);
    }
    std::ranges::sort(classes_, [&](const uint64_t* a, const uint64_t* b) {
      return std::lexicographical_compare(a, a + words_, b, b + words_);
    });
    graph_.left_cap.clear();
    graph_.right_cap.clear();
    graph_.edges.clear();
    long pairs = 0;
    for (size_t i = 0; i < classes_.size();) {
      size_t j = i + 1;
      while (j < classes_.size() && std::equal(classes_[i], classes_[i] + words_, classes_[j])) ++j;
      const int right = static_cast<int>(graph_.right_cap.size());
      graph_.right_cap.push_back(static_cast<long>(j - i));
      for (size_t w = 0; w < words_; ++w)
        for (uint64_t b = classes_[i][w]; b != 0; b &= b - 1) {
          const int e = static_cast<int>(w * 64 + std::countr_zero(b));
          if (local_[e] < 0) {
            local_[e] = static_cast<int>(graph_.left_cap.size());
            graph_.left_cap.push_back(members_[e]);
            used_.push_back(e);
          }
          graph_.edges.push_back({local_[e], right, 1});
          pairs += members_[e] * static_cast<long>(j - i);
        }
      i = j;
    }
    for (int e : used_) local_[e] = -1;
    used_.clear();
    work_ += static_cast<long>(state_.dests_on[c].size() + graph_.edges.size());
    return {graph_.edges.empty() ? 0 : max_matching(graph_, false).value, pairs};
  }

  void set_load(int c, Load now) {
    const Load was = state_.load[c];
    --state_.histogram[was.matching];
    state_.pairs_by_value[was.matching] -= was.pairs;
    state_.sum_squares += now.matching * now.matching - was.matching * was.matching;
    state_.load[c] = now;
    ++state_.histogram[now.matching];
    state_.pairs_by_value[now.matching] += now.pairs;
  }

  // Every move of an entry whose path feeds a channel at the worst case.
  std::vector<Move> candidates_at_worst() {
    const long worst = score().worst;
    std::vector<Move> moves;
    if (worst == 0) return moves;
    std::vector<int> nodes;
    for (int c = 0; c < static_cast<int>(state_.load.size()); ++c) {
      if (state_.load[c].matching != worst) continue;
      const int y = channel_nodes_[c];
      for (int d : state_.dests_on[c]) {
        const uint64_t* bits = set(d, y);
        if (!dests_[d].movable || std::all_of(bits, bits + words_, [](uint64_t w) { return w == 0; })) continue;
        for (size_t s = 0; s < switches_.size(); ++s) {
          const std::vector<uint8_t>& ports = options_[d * switches_.size() + s];
          if (ports.empty()) continue;
          const bool delivers = path(d, switches_[s], nodes);
          work_ += static_cast<long>(nodes.size());
          if (!delivers) continue;
          if (std::ranges::find(nodes, y) == nodes.end()) continue;  // its path misses the channel
          for (uint8_t port : ports)
            if (port != lft(d, switches_[s]))
              for (bool siblings : {false, true}) moves.push_back({d, switches_[s], port, siblings});
        }
      }
    }
    // By rank, not node indices: the same fabric listed in another order gets the same tables.
    std::ranges::sort(moves, {}, [&](const Move& m) { return std::tuple{rank_[dest_nodes_[m.dest]], rank_[m.at], m.port, m.siblings}; });
    moves.erase(std::unique(moves.begin(), moves.end(),
                            [](const Move& a, const Move& b) {
                              return a.dest == b.dest && a.at == b.at && a.port == b.port && a.siblings == b.siblings;
                            }),
                moves.end());
    return moves;
  }

  // Moves `sources` (bits) of d off `from` and onto `to` (paths, past their first switch).
  void shift(int d, const std::vector<uint64_t>& sources, const std::vector<int>& from, const std::vector<int>& to) {
    for (size_t i = 1; i < from.size(); ++i)
      for (size_t w = 0; w < words_; ++w) set(d, from[i])[w] &= ~sources[w];
    for (size_t i = 1; i < to.size(); ++i)
      for (size_t w = 0; w < words_; ++w) set(d, to[i])[w] |= sources[w];
  }

  void retarget(int d, int x, int from_port, int to_port) {
    std::vector<int>& old_list = state_.dests_on[channel(x, from_port)];
    old_list.erase(std::ranges::find(old_list, d));
    state_.dests_on[channel(x, to_port)].push_back(d);
    lfts_.port[x][dests_[d].lid] = static_cast<uint8_t>(to_port);
  }

  // One entry of the destination being moved, as applied, for undoing it.
  struct Change {
    int at = 0, old_port = 0, new_port = 0;
    std::vector<int> old_path, new_path;
    std::vector<uint64_t> sources;
  };

  // Changes d's entry at x to `port` and moves x's sources along; false,
  // changing nothing, when x carries no CA traffic for d, or the new path
  // does not deliver or meets those sources again.
  bool apply(int d, int x, int port, std::vector<Change>& done, std::vector<int>& touched) {
    Change change{x, lft(d, x), port, {}, {}, {}};
    if (!path(d, x, change.old_path) || channel(x, port) < 0 || channel(x, change.old_port) < 0) return false;
    change.sources.assign(set(d, x), set(d, x) + words_);
    if (std::ranges::all_of(change.sources, [](uint64_t w) { return w == 0; })) return false;
    lfts_.port[x][dests_[d].lid] = static_cast<uint8_t>(port);
    const bool delivers = path(d, x, change.new_path);
    lfts_.port[x][dests_[d].lid] = static_cast<uint8_t>(change.old_port);
    if (!delivers || !disjoint_off_path(d, change.sources, change.old_path, change.new_path)) return false;
    retarget(d, x, change.old_port, port);
    shift(d, change.sources, change.old_path, change.new_path);
    // Channels that gain pairs first: the move fails as soon as one passes the worst case.
    touched.push_back(channel(x, port));
    for (size_t i = 1; i + 1 < change.new_path.size(); ++i)
      touched.push_back(channel(change.new_path[i], lft(d, change.new_path[i])));
    touched.push_back(channel(x, change.old_port));
    for (size_t i = 1; i + 1 < change.old_path.size(); ++i)
      touched.push_back(channel(change.old_path[i], lft(d, change.old_path[i])));
    done.push_back(std::move(change));
    return true;
  }

  void undo(int d, std::vector<Change>& done) {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      shift(d, it->sources, it->new_path, it->old_path);
      retarget(d, it->at, it->new_port, it->old_port);
    }
    done.clear();
  }

  // The entries a move changes: its own, and with `siblings` those of every
  // other switch that sends d to the same next switch and may send it where
  // the move does, so the whole destination changes its turning point.
  std::vector<std::pair<int, int>> entries_of(const Move& move) const {
    std::vector<std::pair<int, int>> entries{{move.at, move.port}};
    if (!move.siblings) return entries;
    const int d = move.dest;
    const int from = fabric_.node(move.at).ports[lft(d, move.at)].peer.node;
    const int to = fabric_.node(move.at).ports[move.port].peer.node;
    for (size_t s = 0; s < switches_.size(); ++s) {
      const int z = switches_[s];
      const int now = lft(d, z);
      if (z == move.at || channel(z, now) < 0 || fabric_.node(z).ports[now].peer.node != from) continue;
      for (uint8_t port : options_[d * switches_.size() + s])
        if (fabric_.node(z).ports[port].peer.node == to) {
          entries.emplace_back(z, port);
          break;
        }
    }
    // By rank: a sibling's apply depends on those before it, and the same
    // fabric listed in another node order must get the same tables.
    std::sort(entries.begin() + 1, entries.end(), [&](const auto& a, const auto& b) { return rank_[a.first] < rank_[b.first]; });
    return entries;
  }

  // Applies the move and keeps it when the score falls (or `always`) and
  // the rules find the destination a layer (its own or another SL); else
  // undoes it.
  bool try_move(const Move& move, bool always) {
    const int d = move.dest;
    work_ += static_cast<long>(switches_.size());  // the walks and the search for siblings
    const Score before = score();
    std::vector<Change> done;
    std::vector<int> touched;
    for (const auto& [at, port] : entries_of(move))
      if (!apply(d, at, port, done, touched) && (at == move.at || !move.siblings)) {
        undo(d, done);
        return false;
      }
    std::vector<int> matched;  // touched channels, each once, in order
    std::vector<Load> saved;
    bool worse = false;
    for (int c : touched) {
      if (std::ranges::find(matched, c) != matched.end()) continue;
      matched.push_back(c);
      saved.push_back(state_.load[c]);
      set_load(c, contention(c));
      if (!always && state_.load[c].matching > before.worst) {
        worse = true;
        break;
      }
    }
    if (!worse && (always || score() < before)) {
      const int lid = dests_[d].lid;
      if (const int sl = rules_.layer(lfts_, state_.dest_sl, lid, work_); sl >= 0) {
        if (lid < static_cast<int>(state_.dest_sl.size())) state_.dest_sl[lid] = static_cast<uint8_t>(sl);
        return true;
      }
    }
    undo(d, done);
    for (size_t i = 0; i < matched.size(); ++i) set_load(matched[i], saved[i]);
    return false;
  }

  // The sources through x must not already cross a switch the new path
  // reaches off the old one: the sets would then not be the in-tree's.
  bool disjoint_off_path(int d, const std::vector<uint64_t>& sources, const std::vector<int>& old_path,
                         const std::vector<int>& new_path) {
    for (size_t i = 1; i < new_path.size(); ++i) {
      if (std::ranges::find(old_path, new_path[i]) != old_path.end()) continue;
      const uint64_t* bits = set(d, new_path[i]);
      for (size_t w = 0; w < words_; ++w)
        if (bits[w] & sources[w]) return false;
    }
    return true;
  }

  const Fabric& fabric_;
  PolishRules& rules_;
  Lfts& lfts_;
  std::vector<int> switches_;       // those a CA reaches, by ascending level
  std::vector<int> switch_index_;   // per node, -1 for CAs and unreached switches
  std::vector<int> entries_;        // switches with CAs
  std::vector<int> entry_bit_;      // per node: its bit in the sets, -1 when no CA hangs on it
  std::vector<long> members_;       // per entry: its CAs
  std::vector<Dest> dests_;
  std::vector<int> dest_nodes_;     // per destination: its CA
  std::vector<int> rank_;           // per node: its place by GUID, then name
  State state_;
  size_t words_ = 0;
  std::vector<std::vector<uint8_t>> options_;  // [dest][switch index]: best ports, when more than one
  std::vector<int> first_channel_;  // per switch node
  std::vector<int> channel_nodes_;  // per channel: its switch
  long work_ = 0;  // destinations scanned and pairs of entry switch and destination built, over every matching
  std::vector<const uint64_t*> classes_;  // contention(): the sets of the destinations on the channel
  Bipartite graph_;
  std::vector<int> used_;  // contention(): the entries given a left node
  std::vector<int> local_;          // per entry: its left node in the graph being built, -1 when none
};

// The up/down rule (paths/updown_reach.h): the best ports; SL 0 is up/down
// and so acyclic whatever moves, a detour layer (SL > 0) must stay acyclic.
class UpDownRules : public PolishRules {
 public:
  UpDownRules(const Fabric& fabric, const StarRoots& star, const UpDownReach& reach, const std::vector<uint8_t>& dest_sl)
      : fabric_(fabric), star_(star), reach_(reach), best_(reach) {
    for (size_t lid = 0; lid < dest_sl.size(); ++lid)
      if (dest_sl[lid] != 0) {
        if (lids_on_sl_.size() <= dest_sl[lid]) lids_on_sl_.resize(dest_sl[lid] + 1);
        lids_on_sl_[dest_sl[lid]].push_back(static_cast<int>(lid));
      }
  }

  const std::vector<int>& switches() const override { return reach_.switches(); }
  void at_switch(int x) override { best_.fill(x); }
  std::vector<uint8_t> ports(const Exit& exit) const override { return best_.toward(exit); }
  // Detours on SL 0 (a layering that ran out of SLs) stay as they are.
  bool movable(const Exit& exit, uint8_t sl) const override {
    return sl != 0 || !(reach_.may_detour(exit) && reach_.has_detours(exit.target));
  }
  int layer(const Lfts& lfts, const std::vector<uint8_t>& dest_sl, int lid, long& /*work*/) const override {
    const int sl = lid < static_cast<int>(dest_sl.size()) ? dest_sl[lid] : 0;
    return sl == 0 || layer_acyclic(fabric_, star_, lfts, lids_on_sl_[sl]) ? sl : -1;
  }

 private:
  const Fabric& fabric_;
  const StarRoots& star_;
  const UpDownReach& reach_;
  BestPorts best_;
  std::vector<std::vector<int>> lids_on_sl_;  // per SL > 0: its LIDs
};

}  // namespace

PolishOutcome polish_contention(const RoutingInput& input, const UpDownReach& reach, Routing& routing,
                                const PolishLimits& limits) {
  UpDownRules rules(input.fabric, input.detection.star, reach, routing.dest_sl);
  return polish_contention(input, rules, routing, limits);
}

PolishOutcome polish_contention(const RoutingInput& input, PolishRules& rules, Routing& routing,
                                const PolishLimits& given) {
  PolishLimits limits = given;
  limits.max_work = std::min(given.max_work, input.polish_work);
  if (input.cancel) limits.cancel = input.cancel;
  PolishOutcome outcome;
  if (!input.polish) return outcome;
  long cas = 0;
  for (int n = 0; n < input.fabric.size(); ++n)
    cas += !input.fabric.node(n).is_switch() && !is_aggregation_node(input.fabric.node(n));
  if (cas > limits.max_cas) return outcome;
  const Lfts before = routing.lfts;
  Polisher polisher(input, rules, routing.lfts, routing.dest_sl);
  outcome.ran = true;
  outcome.before = polisher.score().worst;
  polisher.search(limits, outcome.budget_spent);
  outcome.after = polisher.score().worst;
  outcome.work = polisher.work();
  routing.dest_sl = polisher.dest_sl();
  routing.polish_cut_short = routing.polish_cut_short || outcome.budget_spent;
  for (size_t x = 0; x < before.port.size(); ++x)
    for (size_t lid = 0; lid < before.port[x].size(); ++lid) outcome.moves += before.port[x][lid] != routing.lfts.port[x][lid];
  return outcome;
}

std::string polish_note(const PolishOutcome& outcome) {
  if (!outcome.ran) return "";
  return fmt::format("contention polish: worst case {} -> {}, {} entries changed, work {}{}", outcome.before,
                     outcome.after, outcome.moves, outcome.work,
                     outcome.budget_spent ? " (budget spent)" : " (no better tables within the last kicks)");
}

}  // namespace ftclos
