// The C boundary of ftclos_engine.h: the subnet in as a lib Fabric with
// OpenSM's LIDs (engine/subnet_fabric.h), the sweep in lib (engine/sweep.h:
// recognize, route, keep the last sweep's valid entries, check, one INFO
// line), the tables, SLs for path_sl and multicast trees out (what the last
// sweep leaves, engine/last_sweep.h), path bits written. Every error line has
// its number (ERR nn, plugin/README.md). Every entry point catches
// everything (leveldb's db/c.cc style); nothing throws into C.
#include "ftclos_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/workers.h"
#include "detect/host_hints.h"
#include "audit/sl_file.h"
#include "engine/deferred_polish.h"
#include "engine/engine_options.h"
#include "engine/last_sweep.h"
#include "engine/pending_steps.h"
#include "engine/subnet_fabric.h"
#include "engine/sweep.h"
#include "engine/sweep_metrics.h"
#include "engine/sweep_reporter.h"
#include "tables/path_bits.h"

namespace {

using ftclos::SweepError;
using Clock = std::chrono::steady_clock;

// A failure with the errno-style code the C caller gets.
struct Failure {
  int code;
  std::string message;
  SweepError error = SweepError::kNone;
};

int fail(Failure& failure, int code, SweepError error, const std::string& what) {
  failure = {code, ftclos::numbered(error, what), error};
  return code;
}

// The errno-style code of a sweep's error.
int sweep_code(SweepError error) {
  switch (error) {
    case SweepError::kLmcRefused: return -ERANGE;
    case SweepError::kBadOptions: return -EINVAL;
    default: return -EHOSTUNREACH;
  }
}

}  // namespace

// The SLs path_sl answers, written into dump_files_dir after every sweep.
constexpr const char* kSlDumpName = "ftclos-sl.dump";

struct ftclos_engine {
  ftclos_log_fn log_fn = nullptr;
  void* log_ctx = nullptr;
  ftclos_sweep_request_fn sweep_request_fn = nullptr;  // asks OpenSM for a heavy sweep; from the polish's thread
  void* sweep_request_ctx = nullptr;
  ftclos::Result<ftclos::EngineOptions> options = ftclos::EngineOptions{};

  // The last routing's tables, for the C side to copy: per subnet node, the
  // GUID of the switch whose table `last` keeps (0: none).
  std::vector<uint64_t> switch_guids;
  ftclos::LastSweep last;  // the tables, for the next sweep's keep step and for multicast trees
  ftclos::DeferredPolish deferred;  // the full polish after a repair, installed at a later sweep
  ftclos::PendingSteps pending;  // the steps of the last change still to publish, one per sweep
  ftclos::SweepMemory memory;    // the last sweep's dependency counts and check, for the next failure's
  ftclos::SweepReporter reporter;  // every sweep's figures, written for monitoring
  bool reported = false;  // this sweep's figures are in `reporter`
  std::mutex sl_mutex;
  std::shared_ptr<const std::vector<uint8_t>> dest_sl;  // guarded by sl_mutex
  unsigned sl_count = 1;  // 1 + the highest SL in dest_sl, for update_sl2vl's every port pair; guarded by sl_mutex

  void log(int level, const std::string& line) const {
    if (log_fn) log_fn(log_ctx, level, line.c_str());
  }

  void set_sls(std::shared_ptr<const std::vector<uint8_t>> sls) {
    const unsigned count = sls && !sls->empty() ? 1u + *std::ranges::max_element(*sls) : 1u;
    std::lock_guard<std::mutex> lock(sl_mutex);
    dest_sl = std::move(sls);
    sl_count = count;
  }

  // The SLs path_sl answers from now on (none: SL 0); whether there are any.
  bool set_published_sls(std::vector<uint8_t> sls) {
    if (sls.empty()) {
      set_sls(nullptr);
      return false;
    }
    set_sls(std::make_shared<const std::vector<uint8_t>>(std::move(sls)));
    return true;
  }

  // What path_sl answers from now on, in dump_files_dir as `ftclos audit
  // --sl` reads it: the SLs of a LID no PathRecord reaches (an entry on a
  // dead cable during a change's step) are known nowhere else.
  void write_sl_dump(const char* dump_dir, const ftclos::LidMap& lids, const std::vector<uint8_t>& sls) const {
    if (!dump_dir || !*dump_dir) return;
    const std::string path = (std::filesystem::path(dump_dir) / kSlDumpName).string();
    const ftclos::Status status = ftclos::write_file(path, [&](const ftclos::TextSink& sink) {
      return ftclos::write_sl_file(lids, sls, {}, sink);
    });
    if (!status.ok()) log(FTCLOS_LOG_INFO, fmt::format("cannot write {}: {}", path, status.message()));
  }

  // The next step of a change goes out with the next heavy sweep: asked
  // for now, or (steps=wait) one OpenSM starts itself, so that each step
  // can be read back and audited.
  void request_next_step() const {
    if (pending.left() == 0) return;
    if (options->steps_wait)
      log(FTCLOS_LOG_INFO, fmt::format("steps=wait: step {} of {} waits for the next heavy sweep (SIGHUP)",
                                       pending.total() - pending.left() + 1, pending.total()));
    else if (sweep_request_fn)
      sweep_request_fn(sweep_request_ctx);
  }

  // After a failure OpenSM installs another engine's tables: ours are no longer the last ones.
  void clear() {
    deferred.clear();
    memory.clear();
    pending = {};
    switch_guids.clear();
    last.clear();
    set_sls(nullptr);
  }

  // The tree of one group; 0, 1 (fallback tree) or a negative errno value.
  int mcast_tree(uint16_t mlid, const uint64_t* guids, size_t count, std::vector<ftclos_mcast_port>& out,
                 Failure& failure) const {
    using Outcome = ftclos::McastAnswer::Outcome;
    const ftclos::McastAnswer answer = last.mcast_tree(mlid, {guids, count});
    if (answer.outcome == Outcome::kUnknownMember) return fail(failure, -ENOENT, SweepError::kMcastTree, answer.message);
    if (answer.outcome == Outcome::kNoTree) return fail(failure, -EHOSTUNREACH, SweepError::kMcastTree, answer.message);
    for (const ftclos::McastPort& port : answer.ports) out.push_back({port.switch_guid, port.port});
    log(FTCLOS_LOG_VERBOSE, answer.detail);
    if (answer.outcome == Outcome::kOrdered) return 0;
    return fail(failure, 1, SweepError::kMcastUnordered, answer.message);
  }

  // Returns 0 or the failure's code; the sweep logs what it found and decided.
  int route(const ftclos_subnet& subnet, const char* dump_dir, Failure& failure) {
    const Clock::time_point start = Clock::now();
    // The SLs of the last routing stay until the new ones are ready: path_sl
    // never sees a half-built state.
    reported = false;
    switch_guids.clear();
    if (!options.ok())
      return fail(failure, -EINVAL, SweepError::kBadOptions, "bad event_plugin_options: " + options.status().message());
    // Routing and the check split their work over these threads; any count gives the same tables and figures.
    const int threads = ftclos::sweep_threads(*options);
    ftclos::set_max_workers(threads);
    ftclos::Result<ftclos::SubnetFabric> read = ftclos::fabric_from_subnet(subnet);
    if (!read.ok())
      return fail(failure, -EPROTO, SweepError::kBadSubnet, "cannot read the subnet: " + read.status().message());
    const ftclos::Fabric& fabric = read->fabric;
    ftclos::Result<ftclos::ReadHints> hints = ftclos::read_host_hints(options->hint_files, fabric);
    if (!hints.ok())
      return fail(failure, -EINVAL, SweepError::kBadHints, "cannot use a hint file: " + hints.status().message());
    for (const std::string& warning : hints->warnings) log(FTCLOS_LOG_INFO, "hint file: " + warning);
    if (read->unrouted_ports > 0)
      log(FTCLOS_LOG_VERBOSE,
          fmt::format("{} end ports with LIDs have no cable; their LIDs get no route", read->unrouted_ports));
    // What the switches hold, taken from `last`: a sweep that fails clears
    // it (ftclos_engine_route), one that succeeds keeps its own tables.
    const bool repaired = last.repaired_in(fabric);
    std::optional<ftclos::Lfts> previous = last.take_tables_on(fabric, read->lids);
    // The next step of a change, over the tables the last sweep published.
    if (std::vector<uint8_t> step_sl; previous && pending.apply_next(fabric, read->lids, *previous, step_sl)) {
      log(FTCLOS_LOG_INFO, fmt::format("step {} of {} of the last change published (every mix with the step before "
                                       "loop-free and deadlock-free); {:.1f} ms",
                                       pending.total() - pending.left(), pending.total(),
                                       std::chrono::duration<double, std::milli>(Clock::now() - start).count()));
      reporter.step(pending.total() - pending.left());
      reported = true;
      last.keep_tables(fabric, read->lids, std::move(*previous));
      switch_guids = guids_of(*read);
      write_sl_dump(dump_dir, read->lids, step_sl);
      set_published_sls(std::move(step_sl));
      request_next_step();
      return 0;
    }
    deferred.keep_only(fabric, read->lids);  // a polish of another fabric would only hold the CPU
    ftclos::SweepInput input{fabric,
                                   read->lids,
                                   hints->hints,
                                   previous ? &*previous : nullptr,
                                   previous && repaired,
                                   std::chrono::duration<double, std::milli>(Clock::now() - start).count(),
                                   deferred.result_for(fabric, read->lids)};
    // The SLs the SA answers now go with the tables the switches hold (none: SL 0).
    std::shared_ptr<const std::vector<uint8_t>> published_sls;
    {
      std::lock_guard<std::mutex> lock(sl_mutex);
      published_sls = dest_sl;
    }
    const std::vector<uint8_t> sl0;
    input.previous_sl = published_sls ? published_sls.get() : &sl0;
    // The memory describes the last change's new tables: the switches hold
    // them only once all its steps are out.
    if (pending.left() > 0) memory.clear();
    input.memory = &memory;
    const ftclos::SweepOptions sweep_opts = sweep_options(subnet, threads);
    ftclos::SweepOutcome outcome = ftclos::run_sweep(input, sweep_opts, [&](auto level, auto& line) {
      log(level == ftclos::SweepLevel::kError  ? FTCLOS_LOG_ERROR
          : level == ftclos::SweepLevel::kInfo ? FTCLOS_LOG_INFO
                                               : FTCLOS_LOG_VERBOSE,
          line);
    });
    reporter.sweep(ftclos::metrics_of(outcome, fabric, read->lids, options->scheme));
    reported = true;
    if (!outcome.ok()) return fail(failure, sweep_code(outcome.error), outcome.error, outcome.message);
    if (outcome.sweep.polish_deferred) defer_polish(*read, hints->hints, outcome.sweep.routing, sweep_opts);
    return publish(*read, outcome.sweep, dump_dir, failure);
  }

  // After every sweep, failed ones too: the report in report_dir (else
  // OpenSM's dump_files_dir). A sweep that ended before run_sweep has its
  // error only; after it, only the path bits can fail, and the tables are
  // installed all the same. A report that cannot be written is logged; the
  // sweep's outcome stands.
  void report(const char* dump_dir, const Failure& failure) {
    if (!reported)
      reporter.sweep(ftclos::failed_metrics(static_cast<int>(failure.error), failure.message,
                                            options.ok() ? options->scheme : ""));
    reported = false;
    if (options.ok() && !options->report) return;
    const std::string dir = options.ok() && !options->report_dir.empty() ? options->report_dir
                            : dump_dir                                 ? dump_dir
                                                                       : "";
    if (dir.empty()) return;  // no directory given (the C API without OpenSM's): not the working directory
    if (ftclos::Status status = reporter.write(dir); !status.ok())
      log(FTCLOS_LOG_ERROR, ftclos::numbered(SweepError::kReportUnwritten, status.message()));
  }

 private:
  ftclos::SweepOptions sweep_options(const ftclos_subnet& subnet, int threads) const {
    ftclos::SweepOptions out;
    out.scheme = options->scheme;
    out.data_vls = subnet.data_vls > 0 ? subnet.data_vls : ftclos::kDefaultDataVls;
    out.polish = options->polish;
    out.repair_polish_work = options->repair_polish_work;
    out.path_bits_users = options->path_bits_users;
    out.refuse_low_lmc = options->refuse_low_lmc;
    out.allow_unreachable = options->allow_unreachable;
    out.keep_tables = options->keep_tables;
    out.trade_off_audit = options->trade_off_audit;
    out.threads = threads;
    return out;
  }

  // Per subnet node, its switch's GUID (0: not a switch), for ftclos_engine_lft.
  static std::vector<uint64_t> guids_of(const ftclos::SubnetFabric& read) {
    std::vector<uint64_t> out(read.switch_of.size(), 0);
    for (size_t i = 0; i < out.size(); ++i)
      if (read.switch_of[i] >= 0) out[i] = read.fabric.node(read.switch_of[i]).guid;
    return out;
  }

  // The polish this sweep cut short, run to the full budget in the background.
  void defer_polish(const ftclos::SubnetFabric& read, const ftclos::HostHints& hints, const ftclos::Routing& published,
                    const ftclos::SweepOptions& sweep_opts) {
    // steps=wait: its tables, a change too, wait for a sweep OpenSM starts itself, like the steps.
    const bool ask = !options->steps_wait;
    const bool started = deferred.start(read.fabric, read.lids, hints, published, sweep_opts, [this, ask] {
      if (ask && sweep_request_fn) sweep_request_fn(sweep_request_ctx);
    });
    if (started)
      log(FTCLOS_LOG_VERBOSE, "the contention polish stopped at repair_polish_work; the full polish runs in the "
                              "background and a later sweep installs it where its worst case is lower");
  }

  int publish(ftclos::SubnetFabric& read, ftclos::Sweep& sweep, const char* dump_dir, Failure& failure) {
    // A change in steps safe in flight: the first now, the others in the sweeps this one asks for.
    pending.keep(read.fabric, read.lids, sweep.steps, sweep.routing.lfts);
    if (pending.left() > 0) {
      ftclos::apply_step(sweep.steps.steps.front(), sweep.routing.lfts);
      sweep.routing.dest_sl = std::move(sweep.steps.steps.front().dest_sl);
      log(FTCLOS_LOG_INFO, fmt::format("step 1 of {} of the change published; the next sweeps publish the others",
                                       pending.total()));
      request_next_step();
    }
    last.keep(read.fabric, read.lids, sweep, std::move(sweep.routing.lfts), options->scheme);
    switch_guids = guids_of(read);
    write_sl_dump(dump_dir, read.lids, sweep.routing.dest_sl);
    if (set_published_sls(std::move(sweep.routing.dest_sl)))
      log(FTCLOS_LOG_VERBOSE, "path SLs: SL per destination LID, answered in PathRecords");
    if (options->path_bits_file.empty()) return 0;
    std::filesystem::path path(options->path_bits_file);
    if (path.is_relative() && dump_dir && *dump_dir) path = dump_dir / path;
    if (ftclos::Status status = ftclos::write_file(path, [&](const ftclos::TextSink& sink) {
          return ftclos::write_path_bits(read.fabric, sweep.routing, sink);
        });
        !status.ok())
      return fail(failure, -EIO, SweepError::kPathBitsUnwritten, status.message());
    log(FTCLOS_LOG_VERBOSE, fmt::format("path bits written to {}", path.string()));
    return 0;
  }
};

namespace {

void save_error(char** errptr, const std::string& message) {
  if (!errptr) return;
  std::free(*errptr);
  *errptr = strdup(message.c_str());
}

// Runs `body` and turns any exception into an errno code and message.
template <class Body>
int guarded(char** errptr, Body&& body) {
  try {
    Failure failure{0, {}};
    const int rc = body(failure);
    if (rc != 0) save_error(errptr, failure.message);
    return rc;
  } catch (const std::bad_alloc&) {
    save_error(errptr, ftclos::numbered(SweepError::kInternal, "out of memory"));
    return -ENOMEM;
  } catch (const std::exception& e) {
    save_error(errptr, ftclos::numbered(SweepError::kInternal, std::string("internal error: ") + e.what()));
    return -EFAULT;
  } catch (...) {
    save_error(errptr, ftclos::numbered(SweepError::kInternal, "internal error"));
    return -EFAULT;
  }
}

}  // namespace

extern "C" {

struct ftclos_engine* ftclos_engine_create(ftclos_log_fn log, void* log_ctx, char** errptr) {
  try {
    auto* engine = new ftclos_engine;
    engine->log_fn = log;
    engine->log_ctx = log_ctx;
    return engine;
  } catch (...) {
    save_error(errptr, ftclos::numbered(SweepError::kInternal, "out of memory"));
    errno = ENOMEM;
    return nullptr;
  }
}

void ftclos_engine_destroy(struct ftclos_engine* engine) { delete engine; }

void ftclos_engine_set_sweep_request(struct ftclos_engine* engine, ftclos_sweep_request_fn request, void* ctx) {
  engine->sweep_request_fn = request;
  engine->sweep_request_ctx = ctx;
}

int ftclos_engine_set_options(struct ftclos_engine* engine, const char* options, char** errptr) {
  return guarded(errptr, [&](Failure& failure) {
    engine->options = ftclos::parse_engine_options(options ? options : "");
    if (engine->options.ok()) return 0;
    failure = {-EINVAL, engine->options.status().message()};
    return failure.code;
  });
}

int ftclos_engine_route(struct ftclos_engine* engine, const struct ftclos_subnet* subnet, const char* dump_dir,
                        char** errptr) {
  const int rc = guarded(errptr, [&](Failure& failure) {
    const int code = engine->route(*subnet, dump_dir, failure);
    engine->report(dump_dir, failure);
    return code;
  });
  if (rc != 0 && rc != -EIO) {
    try {
      engine->clear();
    } catch (...) {
    }
  }
  return rc;
}

int ftclos_engine_lft(const struct ftclos_engine* engine, size_t node, const uint8_t** ports, uint16_t* max_lid) {
  if (node >= engine->switch_guids.size() || engine->switch_guids[node] == 0) return -ENOENT;
  const std::vector<uint8_t>* table = engine->last.table_of(engine->switch_guids[node]);
  if (!table || table->empty()) return -ENOENT;
  *ports = table->data();
  *max_lid = static_cast<uint16_t>(table->size() - 1);
  return 0;
}

uint8_t ftclos_engine_path_sl(struct ftclos_engine* engine, uint8_t hint, uint16_t /*slid*/, uint16_t dlid) {
  try {
    std::lock_guard<std::mutex> lock(engine->sl_mutex);
    if (engine->dest_sl && dlid < engine->dest_sl->size()) return (*engine->dest_sl)[dlid];
  } catch (...) {
  }
  return hint;
}

unsigned ftclos_engine_sl_count(struct ftclos_engine* engine) {
  try {
    std::lock_guard<std::mutex> lock(engine->sl_mutex);
    return engine->sl_count;
  } catch (...) {
  }
  return 1;
}

int ftclos_engine_mcast_tree(struct ftclos_engine* engine, uint16_t mlid, const uint64_t* member_guids,
                             size_t num_members, struct ftclos_mcast_port** ports, size_t* count, char** errptr) {
  *ports = nullptr;
  *count = 0;
  return guarded(errptr, [&](Failure& failure) {
    std::vector<ftclos_mcast_port> out;
    const int rc = engine->mcast_tree(mlid, member_guids, num_members, out, failure);
    if (rc < 0) return rc;
    *ports = static_cast<ftclos_mcast_port*>(std::malloc(std::max<size_t>(out.size(), 1) * sizeof(ftclos_mcast_port)));
    if (!*ports) throw std::bad_alloc();
    std::ranges::copy(out, *ports);
    *count = out.size();
    return rc;
  });
}

void ftclos_engine_clear(struct ftclos_engine* engine) {
  try {
    engine->clear();
  } catch (...) {
  }
}

void ftclos_free(void* ptr) { std::free(ptr); }

}  // extern "C"
