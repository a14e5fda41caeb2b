// Stage lines of `ftclos audit` on stderr, so long runs show where they are.
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace ftclos::cli {

class Progress {
 public:
  void stage(const std::string& what) {
    fmt::print(stderr, "ftclos audit: {} ({:.1f} s)\n", what,
               std::chrono::duration<double>(Clock::now() - start_).count());
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
};

}  // namespace ftclos::cli
