// The routing engine's options, as OpenSM's event_plugin_options carries
// them to the plugin: "scheme=auto pathbits_file=F lmc_shortfall=warn|refuse
// unreachable=refuse|allow keep_tables=on|off trade_off_audit=on|off steps=auto|wait
// polish=on|off repair_polish_work=N pathbits_users=some|all jobs=N cn_guid_file=F io_guid_file=F
// root_guid_file=F report_dir=DIR|off" (plugin/README.md).
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "detect/host_hints.h"
#include "engine/sweep.h"
#include "route/routing.h"

namespace ftclos {

struct EngineOptions {
  std::string scheme = "auto";
  std::string path_bits_file;  // empty: not written
  bool refuse_low_lmc = false;  // lmc_shortfall=refuse
  bool allow_unreachable = false;  // unreachable=allow
  bool keep_tables = true;  // keep_tables=on: keep the last sweep's entries that are still valid
  bool trade_off_audit = false;  // trade_off_audit=on: after a failure, log both sides' worst-case contention
  bool steps_wait = false;  // steps=wait: each next step of a change waits for a heavy sweep OpenSM starts itself
  bool polish = true;  // polish=off: no contention polish (paths/contention_polish.h), a shorter sweep
  long repair_polish_work = kRepairPolishWork;  // repair_polish_work=N: SweepOptions::repair_polish_work
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;  // pathbits_users=all: every job exports its path bits
  int jobs = 0;  // jobs=N: threads for routing and the check; 0: sweep_threads' default
  HintFiles hint_files;  // cn_guid_file, io_guid_file, root_guid_file: read on every sweep
  bool report = true;      // report_dir=off: no sweep report (engine/sweep_reporter.h)
  std::string report_dir;  // report_dir=DIR: where it goes; empty: OpenSM's dump_files_dir
};

/// key=value words separated by spaces, tabs or commas; an unknown key, a
/// word without '=', an unknown scheme (with the closest name) or value fails.
Result<EngineOptions> parse_engine_options(std::string_view text);

/// The most threads a sweep takes without jobs=: OpenSM's own threads (SA,
/// MADs) and the host's other services keep the rest of a large machine.
inline constexpr int kDefaultJobsCap = 8;

/// The threads a sweep uses: `jobs`, or else the CPUs OpenSM may run on
/// (core/workers.h), at most kDefaultJobsCap. Results are the same for any count.
int sweep_threads(const EngineOptions& options);

}  // namespace ftclos
