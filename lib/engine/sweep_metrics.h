// The figures of one sweep in one plain struct (issue #47): what the plugin
// writes for monitoring after every sweep (engine/sweep_report_json.h,
// engine/metrics_prom.h), failed ones included, and what `ftclos report`
// prints. Sweep counters live in engine/sweep_reporter.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "engine/sweep.h"
#include "route/lid_map.h"

namespace ftclos {

/// A deviation of the recognized family, its ends by name and port.
struct MetricsDeviation {
  std::string kind;  // kind_name (detect/deviation.h): "missing cable", ...
  std::string at;    // "name[port]", "name" (port unknown) or "" (no such node)
  std::string peer;
  std::string text;  // describe(): the line for people
};

struct SweepMetrics {
  double timestamp = 0;  // seconds since the epoch when the sweep ended
  bool ok = false;       // false: the engine returned an error, OpenSM fell back to its next engine
  int error = 0;         // the ERR number (plugin/README.md); 0 when ok
  std::string message;   // the error line; "" when ok
  std::string scheme;    // as configured
  std::string chosen;    // the scheme that routed: auto's choice, else `scheme`; "" when none did
  int lmc = -1;          // -1: not known (the subnet was not read)
  int lmc_needed = -1;   // -1: no routing

  bool recognized = false;  // the fields below up to `deviations` are known
  std::string family;       // most specific family's name, "unknown" when none fits
  std::string family_summary;
  int levels = 0;
  long hosts = 0;  // compute CAs
  long switches = 0;
  long missing_cables = 0;
  std::vector<MetricsDeviation> deviations;

  bool checked = false;  // the check ran on the tables: the fields below up to `vls_used` are known
  long ca_routes = 0;    // (source CA, destination LID) routes examined
  long ca_undelivered = 0;
  long switch_routes = 0;  // switches' own routes (PMA)
  long switch_undelivered = 0;
  int credit_loops = 0;               // CA routes, per VL
  std::optional<int> credit_loops_with_switches;  // switches' own routes joined (SweepFigures)
  int sls_used = 0;
  int vls_used = 0;
  std::optional<ConsumerFigures> worst_case;  // SweepFigures; none above kConsumerFiguresCas CAs

  long changed_entries = -1;  // -1: no previous tables to compare with
  long changed_blocks = -1;
  int steps = 0;            // of the change, safe in flight; 0 without one
  int steps_published = 0;  // of them in the switches
  bool steps_safe = true;
  bool polish_deferred = false;  // a full polish runs in the background
  bool polish_installed = false;  // this sweep installed a deferred polish

  double recognition_seconds = 0, routing_seconds = 0, checking_seconds = 0;
  bool step_only = false;  // the sweep only published the next step of the last change: the rest is that change's
};

/// Counted over the plugin's life: Prometheus counters, which start again
/// at 0 when OpenSM restarts (rate() and increase() allow for that).
struct SweepCounters {
  long sweeps = 0;            // routing callbacks, failed ones and those publishing a step included
  long failures = 0;          // of them: the engine returned an error
  long polish_installed = 0;  // sweeps that installed a deferred polish
};

/// What the plugin writes after every sweep: its figures, the sweep's
/// before it (for what changed; none after OpenSM starts) and the counters.
struct SweepReport {
  SweepMetrics sweep;
  std::optional<SweepMetrics> previous;
  SweepCounters counters;
};

/// The figures of `outcome` (failed or not) on `fabric` with `lids`, for
/// configured `scheme`; the first of `outcome.sweep.steps` is published.
SweepMetrics metrics_of(const SweepOutcome& outcome, const Fabric& fabric, const LidMap& lids,
                        const std::string& scheme);

/// A sweep that ended before it routed (bad options, an unreadable subnet
/// or hint file): its error only.
SweepMetrics failed_metrics(int error, const std::string& message, const std::string& scheme);

}  // namespace ftclos
