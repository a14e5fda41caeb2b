// Random draws that are the same on every standard library, so one seed gives
// one fabric, one traffic pattern and one simulation everywhere.
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <utility>

namespace ftclos {

/// Uniform in [0, n), n > 0. Spelled out rather than std::uniform_int_distribution,
/// whose output differs between standard libraries: one seed, one fabric, everywhere.
inline uint64_t draw_below(std::mt19937_64& rng, uint64_t n) {
  const uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
  uint64_t x = rng();
  while (x >= limit) x = rng();
  return x % n;
}

/// Fisher-Yates over [first, last) with draw_below, like std::shuffle but the same everywhere.
template <class RandomIt>
void shuffle_in_place(RandomIt first, RandomIt last, std::mt19937_64& rng) {
  for (auto i = last - first; i > 1; --i) std::swap(first[i - 1], first[draw_below(rng, i)]);
}

}  // namespace ftclos
