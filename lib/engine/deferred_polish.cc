#include "engine/deferred_polish.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <optional>

#include "audit/worst_case.h"

namespace ftclos {

struct DeferredPolish::Job {
  Fabric fabric;
  LidMap lids;
  HostHints hints;
  Routing published;
  SweepOptions options;
  std::atomic<bool> cancel{false};
  std::atomic<bool> finished{false};  // `result` is final (set or not)
  std::optional<PolishedTables> result;

  void run(const std::function<void()>& done) {
    // The repaired tables and OpenSM's own threads come first.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
    options.cancel = &cancel;
    SweepOutcome outcome = run_sweep({fabric, lids, hints}, options);
    const bool sound = outcome.ok() && undelivered_reason(outcome.sweep.check, options.check_switch_routes).empty();
    if (sound && !cancel.load()) {
      const Levels& levels = outcome.sweep.detection.levels;
      const double worst = routing_worst_case(fabric, levels, lids, outcome.sweep.routing);
      const double published_worst = routing_worst_case(fabric, levels, lids, published);
      result = PolishedTables{std::move(outcome.sweep.routing), std::move(outcome.sweep.check), worst, published_worst};
    }
    finished.store(true, std::memory_order_release);
    // A sweep only to keep what is published would cost OpenSM a heavy sweep for nothing.
    if (result && result->worst < result->published_worst && !cancel.load() && done) done();
  }
};

DeferredPolish::DeferredPolish() = default;

DeferredPolish::~DeferredPolish() { stop(); }

bool DeferredPolish::start(const Fabric& fabric, const LidMap& lids, const HostHints& hints, const Routing& published,
                           const SweepOptions& options, std::function<void()> done) {
  if (job_ && !job_->cancel.load() && same_subnet(job_->fabric, job_->lids, fabric, lids)) return false;
  stop();
  job_ = std::make_unique<Job>();
  job_->fabric = fabric;
  job_->lids = lids;
  job_->hints = hints;
  job_->published = published;
  job_->options = options;
  thread_ = std::thread([job = job_.get(), done = std::move(done)] { job->run(done); });
  return true;
}

void DeferredPolish::keep_only(const Fabric& fabric, const LidMap& lids) {
  if (job_ && !same_subnet(job_->fabric, job_->lids, fabric, lids)) clear();
}

void DeferredPolish::clear() {
  stop();
  job_.reset();
}

void DeferredPolish::stop() {
  if (!thread_.joinable()) return;
  job_->cancel.store(true);
  thread_.join();
}

const PolishedTables* DeferredPolish::result_for(const Fabric& fabric, const LidMap& lids) const {
  if (!job_ || !job_->finished.load(std::memory_order_acquire) || !job_->result) return nullptr;
  return same_subnet(job_->fabric, job_->lids, fabric, lids) ? &*job_->result : nullptr;
}

bool same_subnet(const Fabric& a, const LidMap& a_lids, const Fabric& b, const LidMap& b_lids) {
  if (a.size() != b.size() || a_lids.lmc != b_lids.lmc || a_lids.base != b_lids.base || a_lids.owner != b_lids.owner)
    return false;
  for (int x = 0; x < a.size(); ++x) {
    const Node &m = a.node(x), &n = b.node(x);
    if (m.type != n.type || m.guid != n.guid || m.num_ports != n.num_ports) return false;
    for (int p = 0; p <= m.num_ports; ++p)
      if (m.ports[p].peer != n.ports[p].peer) return false;
  }
  return true;
}

}  // namespace ftclos
