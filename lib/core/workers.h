// Threads for work whose results must not depend on how many run: tasks
// split into contiguous blocks, one per worker, that the caller merges in
// block order. One cap for the whole process: `ftclos --jobs N`, the
// plugin's `jobs=N`.
#pragma once

#include <thread>
#include <vector>

namespace ftclos {

/// The CPUs this process may run on (`taskset` narrows them), at least 1.
int available_cpus();

/// Caps the threads; 0 or less: one per available CPU.
void set_max_workers(int workers);

/// Workers for `tasks` independent tasks: the available CPUs (or
/// set_max_workers), at most one per task.
int worker_count(long tasks);

/// Runs body(worker, begin, end) over contiguous blocks of 0..tasks-1, one
/// block per worker, in parallel; block w comes before block w+1.
template <class Body>
void for_each_block(long tasks, int workers, Body body) {
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    const long begin = tasks * w / workers, end = tasks * (w + 1) / workers;
    if (w + 1 == workers) {
      body(w, begin, end);  // the calling thread works too
    } else {
      threads.emplace_back(body, w, begin, end);
    }
  }
  for (std::thread& thread : threads) thread.join();
}

}  // namespace ftclos
