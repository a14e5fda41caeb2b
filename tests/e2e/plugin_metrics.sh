#!/usr/bin/env bash
# The plugin's sweep report (issue #47) against stock OpenSM and ibsim on
# FT(8,3), one daemon, scheme=dmodk, report_dir set:
#   first sweep   ftclos.prom parses with a strict parser of the text format
#                 (Debian's python3-prometheus-client), names every figure
#                 with HELP and TYPE; ftclos-sweep.json follows
#                 doc/schemas/sweep.schema.json; the worst cases, routes and
#                 credit loops equal `ftclos audit` of the tables read back
#                 from the switches (ibnetdiscover, dump_lfts);
#   cable cut     one level-2/level-3 cable: sweeps_total moves, the missing
#                 cable is named by its ends, undelivered stays 0, the
#                 changed entries, blocks and steps equal `ftclos route
#                 --previous --stages` on the read-back fabric, the figures
#                 equal the new read-back's audit; `ftclos report` says what
#                 changed since the sweep before;
#   failed sweep  the cn_guid_file made unreadable: the sweep fails (ERR 13,
#                 OpenSM falls back), sweep_failures_total moves and the
#                 files say so; restored, the next sweep succeeds;
#   reader        a poller parsing both files in a loop through all the
#                 sweeps never sees one partial.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$here/sm_daemon.sh"
PYTHON=/usr/bin/python3  # Debian's, with python3-prometheus-client and python3-jsonschema
"$PYTHON" -c 'import prometheus_client.parser, jsonschema' 2>/dev/null ||
  { echo "python3-prometheus-client or python3-jsonschema missing (scripts/setup.sh installs them)"; exit 1; }
plugin_work_dir
POLLER_PID=
trap 'stop_opensm; [ -z "$POLLER_PID" ] || kill "$POLLER_PID" 2>/dev/null || true; cleanup_ibsims;
  [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# The checks, one subcommand each; exit 1 with what differs.
CHECK=$work/metrics_check.py
cat >"$CHECK" <<'PY'
import json, sys, time
from pathlib import Path
from prometheus_client.parser import text_string_to_metric_families
import jsonschema

FAMILIES = """ftclos_sweeps_total counter
ftclos_sweep_failures_total counter
ftclos_last_sweep_timestamp_seconds gauge
ftclos_last_sweep_success gauge
ftclos_last_sweep_error gauge
ftclos_scheme_info gauge
ftclos_lmc gauge
ftclos_lmc_needed gauge
ftclos_fabric_info gauge
ftclos_fabric_levels gauge
ftclos_fabric_hosts gauge
ftclos_fabric_switches gauge
ftclos_fabric_missing_cables gauge
ftclos_fabric_deviations gauge
ftclos_worst_case_contention gauge
ftclos_routes gauge
ftclos_undelivered_routes gauge
ftclos_credit_loops gauge
ftclos_sls_used gauge
ftclos_vls_used gauge
ftclos_sweep_duration_seconds gauge
ftclos_deferred_polish_pending gauge
ftclos_deferred_polish_installed_total counter"""
CHANGE = {"ftclos_changed_lft_entries", "ftclos_changed_lft_blocks", "ftclos_change_steps",
          "ftclos_change_steps_published", "ftclos_change_safe"}


def samples(text):
    """{(name, frozenset(labels)): value}, every family with HELP and TYPE."""
    out, docs = {}, {}
    for family in text_string_to_metric_families(text):
        docs[family.name] = (family.type, family.documentation)
        for s in family.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out, docs


def value(got, name, **labels):
    return got.get((name, frozenset(labels.items())))


def load(d):
    text = Path(d, "ftclos.prom").read_text()
    report = json.loads(Path(d, "ftclos-sweep.json").read_text())
    return text, report


# A sweep that failed before it read the fabric knows only these.
ALWAYS = {"ftclos_sweeps_total", "ftclos_sweep_failures_total", "ftclos_last_sweep_timestamp_seconds",
          "ftclos_last_sweep_success", "ftclos_last_sweep_error", "ftclos_scheme_info", "ftclos_deferred_polish_pending",
          "ftclos_deferred_polish_installed_total"}


def check_files(d, schema, known=None):
    """Both files whole and valid: every family (of `known`) with HELP and TYPE, the JSON by its schema."""
    text, report = load(d)
    got, docs = samples(text)
    problems = []
    for line in FAMILIES.splitlines():
        name, kind = line.split()
        if known is not None and name not in known:
            continue
        base = name[:-len("_total")] if kind == "counter" else name
        if base not in docs or docs[base][0] != kind or not docs[base][1]:
            problems.append(f"{name}: no {kind} with HELP")
        if f"# HELP {name} " not in text or f"# TYPE {name} {kind}\n" not in text:
            problems.append(f"{name}: no HELP/TYPE line")
    jsonschema.validate(report, json.loads(Path(schema).read_text()))
    return got, report, problems


def first(d, schema, audit_path):
    got, report, problems = check_files(d, schema)
    audit = json.load(open(audit_path))
    worst = audit["worst_case_contention"]
    for consumer in ("offset0", "path_bits", "all_offsets"):
        if value(got, "ftclos_worst_case_contention", consumer=consumer) != worst:
            problems.append(f"worst case {consumer}: {value(got, 'ftclos_worst_case_contention', consumer=consumer)}, audit {worst}")
    pairs = {"ca": audit["pairs"], "switch": audit["switch_pairs"]}
    for kind in ("ca", "switch"):
        if value(got, "ftclos_routes", kind=kind) != pairs[kind]:
            problems.append(f"{kind} routes {value(got, 'ftclos_routes', kind=kind)}, audit {pairs[kind]}")
        if value(got, "ftclos_undelivered_routes", kind=kind) != 0:
            problems.append(f"{kind} undelivered {value(got, 'ftclos_undelivered_routes', kind=kind)}")
    if value(got, "ftclos_credit_loops", routes="ca") != audit["credit_loops"] or \
            value(got, "ftclos_credit_loops", routes="ca_and_switch") != audit["switch_credit_loops"]:
        problems.append(f"credit loops differ from the audit's {audit['credit_loops']}/{audit['switch_credit_loops']}")
    if value(got, "ftclos_last_sweep_success") != 1 or value(got, "ftclos_fabric_missing_cables") != 0:
        problems.append("the first sweep is not a success on the intact fabric")
    return problems, got


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "first":
        problems, got = first(*args)
        print(f"first sweep: {len(got)} samples; worst case {value(got, 'ftclos_worst_case_contention', consumer='offset0')}"
              f" = audit; {int(value(got, 'ftclos_routes', kind='ca'))} CA routes, 0 undelivered")
    elif command == "cut":
        d, schema, audit_path, cli_path, before, cut_at, cut_peer = args
        problems, got = first(d, schema, audit_path)
        problems = [p for p in problems if "intact" not in p]
        _, report = load(d)
        sweep = report["sweep"]
        cli = dict(line.split("=") for line in open(cli_path).read().split())
        change = sweep["change"]
        if change is None:
            problems.append("no change figures after the cut")
        else:
            for key in ("entries", "blocks", "steps"):
                if str(change[key]) != cli[key]:
                    problems.append(f"change {key}: {change[key]}, route --previous {cli[key]}")
            if change["steps_published"] != change["steps"]:
                problems.append(f"{change['steps_published']} of {change['steps']} steps published")
        if value(got, "ftclos_fabric_missing_cables") != 1:
            problems.append(f"missing cables {value(got, 'ftclos_fabric_missing_cables')}")
        missing = [dv for dv in sweep["recognition"]["deviations"] if dv["kind"] == "missing-cable"]
        ends = {missing[0]["at"], missing[0]["peer"]} if missing else set()
        if ends != {cut_at, cut_peer}:
            problems.append(f"the missing cable's ends {ends}, cut {cut_at} - {cut_peer}")
        if report["sweeps_total"] <= int(before):
            problems.append(f"sweeps_total {report['sweeps_total']}, before the cut {before}")
        print(f"cut: {change and change['entries']} entries in {change and change['blocks']} blocks, "
              f"{change and change['steps']} steps (route --previous: {cli}); missing cable {sorted(ends)}; "
              f"sweeps {before} -> {report['sweeps_total']}")
    elif command == "failed":
        d, schema, failures_before = args
        got, report, problems = check_files(d, schema, ALWAYS)
        if report["sweep_failures_total"] <= int(failures_before) or value(got, "ftclos_last_sweep_success") != 0 \
                or value(got, "ftclos_last_sweep_error") != 13 or report["sweep"]["ok"]:
            problems.append(f"failed sweep not reported: failures {report['sweep_failures_total']} "
                            f"(before {failures_before}), error {value(got, 'ftclos_last_sweep_error')}")
        print(f"failed sweep: ERR {int(value(got, 'ftclos_last_sweep_error'))}, failures {failures_before} -> "
              f"{report['sweep_failures_total']}")
    elif command == "get":  # get DIR KEY: a top-level figure of the JSON
        print(load(args[0])[1][args[1]])
        return 0
    elif command == "poll":  # poll DIR STOP OUT: parse both files until STOP exists
        d, stop, out = args
        reads = partial = 0
        seen = set()
        while not Path(stop).exists():
            try:
                text, report = load(d)
            except FileNotFoundError:
                time.sleep(0.005)
                continue
            except ValueError as e:
                partial += 1
                print("partial JSON:", e, file=sys.stderr)
                continue
            reads += 1
            try:
                got, _ = samples(text)
                if not text.endswith("\n") or value(got, "ftclos_deferred_polish_installed_total") is None:
                    raise ValueError("the last family is missing")
                seen.add(int(value(got, "ftclos_sweeps_total")))
            except ValueError as e:
                partial += 1
                print("partial prom:", e, file=sys.stderr)
            time.sleep(0.002)
        Path(out).write_text(f"{reads} {partial} {len(seen)}\n")
        return 0
    for p in problems:
        print("   ", p)
    return 1 if problems else 0


sys.exit(main())
PY

net=$root/ibsim-topos/ft-8-3.net
dir=$work/sm
reports=$dir/reports
mkdir -p "$reports"
schema=$root/doc/schemas/sweep.schema.json
SOCK=ftclos-metrics-$$
HOST=$(first_ca "$net")
echo "# compute CAs: none named (a file that parses)" >"$dir/cn.guids"
start_console_ibsim "$SOCK" "$net" "$dir/ibsim.log" || exit 1
# The whole polish in the repair sweep: no deferred polish sweep changes more than the cut.
start_sm "$dir" "$SOCK" "$HOST" "scheme=dmodk repair_polish_work=50000000 cn_guid_file=$dir/cn.guids report_dir=$reports"
settle "$dir" 1 || exit 1

# read_back PREFIX: the topology and the LFTs as the switches have them, and their audit.
read_back() {
  sim_run "$SOCK" "$HOST" timeout 120 ibnetdiscover >"$1.topo" 2>/dev/null &&
    sim_run "$SOCK" "$HOST" timeout 120 dump_lfts >"$1.lfts" 2>/dev/null &&
    "$FTCLOS" -q audit "$1.topo" "$1.lfts" --json "$1.audit.json" >"$1.audit.out" 2>&1
}

failed=0
read_back "$dir/base" || { echo "FAIL read-back or audit of the first sweep: $(tail -3 "$dir/base.audit.out")"; exit 1; }
cp "$dir/opensm-lfts.dump" "$dir/base.dump"
"$PYTHON" "$CHECK" first "$reports" "$schema" "$dir/base.audit.json" || failed=$((failed + 1))

# From here on a reader polls both files through every sweep.
"$PYTHON" "$CHECK" poll "$reports" "$dir/stop-poll" "$dir/poll.out" 2>"$dir/poll.err" &
POLLER_PID=$!

# A level-2/level-3 cable cut (plugin_failures.sh's): the repair, then its steps.
sweeps=$("$PYTHON" "$CHECK" get "$reports" sweeps_total)
sweep_after "$dir" 'Unlink "L2-0.0"[5]' || exit 1
peer=$(awk '/^Switch.*"L2-0.0"/ { on = 1; next } /^$/ { on = 0 } on && /^\[5\]/ { match($0, /"[^"]*"\[[0-9]+\]/); print substr($0, RSTART, RLENGTH) }' "$net" | tr -d '"')
read_back "$dir/cut" || { echo "FAIL read-back or audit after the cut: $(tail -3 "$dir/cut.audit.out")"; exit 1; }
# The same change offline: the first sweep's tables on the cut fabric.
"$FTCLOS" -q route "$dir/cut.topo" --scheme dmodk --previous "$dir/base.dump" --repair-polish-work 50000000 \
  --stages "$dir/stage" -o "$dir/cli.dump" 2>"$dir/cli.err" || { echo "FAIL route --previous: $(cat "$dir/cli.err")"; exit 1; }
sed -nE 's/^entries changed from .*: ([0-9]+) in ([0-9]+) LFT blocks.*/entries=\1 blocks=\2/p; s/^safe steps: ([0-9]+).*/steps=\1/p' \
  "$dir/cli.err" | tr '\n' ' ' >"$dir/cli.figures"
"$PYTHON" "$CHECK" cut "$reports" "$schema" "$dir/cut.audit.json" "$dir/cli.figures" "$sweeps" "L2-0.0[5]" "$peer" ||
  failed=$((failed + 1))
"$FTCLOS" report "$reports" >"$dir/report.txt" || { echo "FAIL ftclos report: exit $?"; failed=$((failed + 1)); }
grep -q "^since the previous sweep" "$dir/report.txt" && grep -q "missing cables: 0 -> 1\|missing cable" "$dir/report.txt" ||
  { echo "FAIL ftclos report does not say what changed:"; cat "$dir/report.txt"; failed=$((failed + 1)); }

# A sweep that fails: the hint file no longer parses (ERR 13), OpenSM falls back to updn.
failures=$("$PYTHON" "$CHECK" get "$reports" sweep_failures_total)
echo "not-a-guid" >"$dir/cn.guids"
from=$(($(stat -c %s "$dir/osm.log") + 1))
hup_opensm
settle "$dir" "$from" || exit 1
"$PYTHON" "$CHECK" failed "$reports" "$schema" "$failures" || failed=$((failed + 1))
echo "# compute CAs: none named" >"$dir/cn.guids"
from=$(($(stat -c %s "$dir/osm.log") + 1))
hup_opensm
settle "$dir" "$from" || exit 1
[ "$("$PYTHON" "$CHECK" get "$reports" sweep_failures_total)" = $((failures + 1)) ] &&
  grep -q "^ftclos_last_sweep_success 1$" "$reports/ftclos.prom" ||
  { echo "FAIL the sweep after the hint file came back"; failed=$((failed + 1)); }

touch "$dir/stop-poll"
wait "$POLLER_PID" || true
POLLER_PID=
read -r reads partial distinct <"$dir/poll.out"
echo "reader: $reads reads of both files over $distinct sweeps, $partial partial"
[ "$partial" = 0 ] && [ "$distinct" -ge 3 ] || { echo "FAIL the reader: $(head -3 "$dir/poll.err")"; failed=$((failed + 1)); }
sed 's/^/    /' "$dir/report.txt"
[ "$failed" -eq 0 ] && echo "plugin_metrics: all passed"
