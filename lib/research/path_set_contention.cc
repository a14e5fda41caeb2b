#include "research/path_set_contention.h"

#include <algorithm>
#include <limits>

namespace ftclos {
namespace {

// Hopcroft-Karp on one channel's pairs. Host numbers are renumbered densely
// per side; the scratch is kept between channels, so a channel costs
// O(pairs x sqrt(hosts)) and no allocation once the largest has been seen.
class Matcher {
 public:
  std::vector<SdPair> match(std::span<const SdPair> pairs) {
    renumber(pairs);
    match_left_.assign(left_hosts_.size(), -1);
    match_right_.assign(right_hosts_.size(), -1);
    // Greedy first: most of the matching, so few phases remain.
    for (int u = 0; u < static_cast<int>(left_hosts_.size()); ++u)
      for (int e = adj_begin_[u]; e < adj_begin_[u + 1]; ++e)
        if (match_right_[adj_[e]] < 0) {
          match_left_[u] = adj_[e];
          match_right_[adj_[e]] = u;
          break;
        }
    while (layer())
      for (int u = 0; u < static_cast<int>(left_hosts_.size()); ++u)
        if (match_left_[u] < 0) augment(u);
    std::vector<SdPair> out;
    for (int u = 0; u < static_cast<int>(left_hosts_.size()); ++u)
      if (match_left_[u] >= 0) out.push_back({left_hosts_[u], right_hosts_[match_left_[u]]});
    std::ranges::sort(out);
    for (int host : left_hosts_) left_of_[host] = -1;
    for (int host : right_hosts_) right_of_[host] = -1;
    return out;
  }

 private:
  static constexpr int kUnreached = std::numeric_limits<int>::max();

  // Dense ids per side and the adjacency of the left side (sources).
  void renumber(std::span<const SdPair> pairs) {
    left_hosts_.clear();
    right_hosts_.clear();
    for (const SdPair& p : pairs) {
      const size_t needed = static_cast<size_t>(std::max(p.source, p.destination)) + 1;
      if (left_of_.size() < needed) {
        left_of_.resize(needed, -1);
        right_of_.resize(needed, -1);
      }
      if (left_of_[p.source] < 0) {
        left_of_[p.source] = static_cast<int>(left_hosts_.size());
        left_hosts_.push_back(p.source);
      }
      if (right_of_[p.destination] < 0) {
        right_of_[p.destination] = static_cast<int>(right_hosts_.size());
        right_hosts_.push_back(p.destination);
      }
    }
    adj_begin_.assign(left_hosts_.size() + 1, 0);
    for (const SdPair& p : pairs) ++adj_begin_[left_of_[p.source] + 1];
    for (size_t u = 0; u < left_hosts_.size(); ++u) adj_begin_[u + 1] += adj_begin_[u];
    adj_.resize(pairs.size());
    next_.assign(adj_begin_.begin(), adj_begin_.end() - 1);
    for (const SdPair& p : pairs) adj_[next_[left_of_[p.source]]++] = right_of_[p.destination];
  }

  // BFS from the free sources over alternating paths; true when a free destination is reached.
  bool layer() {
    dist_.assign(left_hosts_.size(), kUnreached);
    queue_.clear();
    for (int u = 0; u < static_cast<int>(left_hosts_.size()); ++u)
      if (match_left_[u] < 0) {
        dist_[u] = 0;
        queue_.push_back(u);
      }
    bool free_reached = false;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const int u = queue_[head];
      for (int e = adj_begin_[u]; e < adj_begin_[u + 1]; ++e) {
        const int w = match_right_[adj_[e]];
        if (w < 0) {
          free_reached = true;
        } else if (dist_[w] == kUnreached) {
          dist_[w] = dist_[u] + 1;
          queue_.push_back(w);
        }
      }
    }
    next_.assign(adj_begin_.begin(), adj_begin_.end() - 1);
    return free_reached;
  }

  // One shortest augmenting path from u along the layers; depth is at most the matching size.
  bool augment(int u) {
    for (int& e = next_[u]; e < adj_begin_[u + 1]; ++e) {
      const int v = adj_[e];
      const int w = match_right_[v];
      if (w < 0 || (dist_[w] == dist_[u] + 1 && augment(w))) {
        match_left_[u] = v;
        match_right_[v] = u;
        ++e;
        return true;
      }
    }
    dist_[u] = kUnreached;
    return false;
  }

  std::vector<int> left_of_, right_of_;        // per host number: dense id, -1 when absent
  std::vector<int> left_hosts_, right_hosts_;  // per dense id: host number
  std::vector<int> adj_begin_, adj_, next_;
  std::vector<int> match_left_, match_right_, dist_, queue_;
};

}  // namespace

std::vector<SdPair> max_pair_matching(std::span<const SdPair> pairs) { return Matcher().match(pairs); }

PathSetContention path_set_contention(const PairsByChannel& by_channel) {
  PathSetContention out;
  out.matching.assign(by_channel.channels(), 0);
  Matcher matcher;
  for (int c = 0; c < by_channel.channels(); ++c) {
    const std::span<const SdPair> pairs = by_channel.of(c);
    if (pairs.empty()) continue;
    std::vector<SdPair> matched = matcher.match(pairs);
    out.matching[c] = static_cast<int>(matched.size());
    if (out.matching[c] > out.worst_case) {
      out.worst_case = out.matching[c];
      out.worst_channel = c;
      out.witness = std::move(matched);
    }
  }
  return out;
}

}  // namespace ftclos
