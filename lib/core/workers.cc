#include "core/workers.h"

#include <sched.h>

#include <algorithm>
#include <atomic>

namespace ftclos {
namespace {

std::atomic<int> max_workers{0};

}  // namespace

int available_cpus() {
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0) return std::max(1, CPU_COUNT(&cpus));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void set_max_workers(int workers) { max_workers = workers; }

int worker_count(long tasks) {
  const long cap = max_workers > 0 ? max_workers.load() : available_cpus();
  return static_cast<int>(std::clamp(tasks, 1L, cap));
}

}  // namespace ftclos
