#!/usr/bin/env bash
# `ftclos trace` against ibtracert (issue #31): on three fabrics stock OpenSM
# routes a private ibsim (at LMC 2, 0 and 1) and writes opensm-lfts.dump;
# for 50 seeded random pairs of CAs and every LID of the destination,
# ibtracert follows the live switches and `ftclos trace` the dump, with
# ibnetdiscover's read-back as the topology. Both must name the same
# switches with the same in and out ports, hop by hop, and both deliver.
# Then a table entry is broken in a copy of the dump (dropped, and looping
# back) and trace must exit 1 saying where. Prints the number of traced
# LIDs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
enter_workdir

# fabric (ibsim-topos/<fabric>.net) | LMC
cases=("ft-8-3|2" "clos2-4-4-8-io2|0" "rfc-8-16-3-seed1|1")
failures=0
traced=0

# The comparison, run while ibsim holds the tables: ibtracert's hops
# ("[out] -> switch port {GUID}[in]") against trace's ("hop N: switch ...
# 0xGUID in I out O"), as "GUID in out" lists.
COMPARE=$work/compare.py
cat >"$COMPARE" <<'PY'
import os, random, re, subprocess, sys
ftclos, topo, dump, sock, host, umad = sys.argv[1:7]
# CA ports and their LIDs from ibnetdiscover: "[1](guid) ... # lid L lmc M ..."
cas = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r"^\[\d+\]\([0-9a-f]+\)[^#]*# lid (\d+) lmc (\d+)", open(topo).read(), re.M)]
rng = random.Random(31)
env = dict(os.environ, IBSIM_SOCKNAME=sock, SIM_HOST=host, LD_PRELOAD=umad)
traced = failures = 0
for _ in range(50):
    (src, _), (dst, lmc) = rng.sample(cas, 2)
    for dlid in range(dst, dst + (1 << lmc)):
        try:  # subprocess's timeout, not timeout(1): a process fewer per LID
            live = subprocess.run(["ibtracert", str(src), str(dlid)], env=env, capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            live = subprocess.CompletedProcess([], 124, "", "")
        ours = subprocess.run([ftclos, "-q", "trace", topo, dump, str(src), str(dlid)], capture_output=True, text=True)
        want, outs, cur = [], [], None
        for line in live.stdout.splitlines():
            m = re.match(r"\[(\d+)\] -> (switch|ca) port \{0x([0-9a-f]+)\}\[(\d+)\]", line)
            if not m:
                continue
            if cur:
                want.append("%s in %s out %s" % (cur[0], cur[1], m.group(1)))
            cur = (m.group(3), m.group(4)) if m.group(2) == "switch" else None
        got = ["%s in %s out %s" % m.groups() for m in re.finditer(r"^hop \d+: switch .* 0x([0-9a-f]+) in (\d+) out (\d+)", ours.stdout, re.M)]
        traced += 1
        if live.returncode != 0 or ours.returncode != 0 or not want or want != got:
            failures += 1
            print("FAIL %d -> %d: ibtracert (exit %d) %s; ftclos trace (exit %d) %s %s" % (src, dlid, live.returncode, want, ours.returncode, got, ours.stderr.strip()[:200]))
print("traced %d %d" % (traced, failures))
PY

for entry in "${cases[@]}"; do
  IFS='|' read -r fabric lmc <<<"$entry"
  dir=$work/$fabric
  mkdir -p "$dir"
  net=$root/ibsim-topos/$fabric.net sock=ftclos-trace-$$-$fabric
  host=$(first_ca "$net")
  start_ibsim "$sock" "$net" "$dir/ibsim.log" || { failures=$((failures + 1)); continue; }
  printf 'lmc %s\nlog_flags 0x43\ndump_files_dir %s\n' "$lmc" "$dir" >"$dir/opensm.conf"
  (cd "$dir" && OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir sim_run "$sock" "$host" timeout 120 \
    opensm -F "$dir/opensm.conf" -f "$dir/osm.log" -o >"$dir/opensm.out" 2>&1) ||
    { echo "FAIL $fabric: opensm: $(tail -3 "$dir/opensm.out")"; failures=$((failures + 1)); continue; }
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/disc" 2>"$dir/disc.err"
  python3 "$COMPARE" "$FTCLOS" "$dir/disc" "$dir/opensm-lfts.dump" "$sock" "$host" "$UMAD2SIM" >"$dir/compare.out"
  stop_ibsim "${IBSIM_PIDS[-1]}"
  grep '^FAIL' "$dir/compare.out" | head -5 || true
  read -r _ count bad < <(grep '^traced' "$dir/compare.out")
  echo "$fabric (LMC $lmc): $count LIDs traced, $bad differ from ibtracert"
  traced=$((traced + count))
  failures=$((failures + bad))
done

# Broken tables, in copies of the first fabric's dump: the first switch of
# a path with two or more switches drops the LID (entry 255), or the second
# sends it back down to the first (a loop); trace must exit 1 naming the
# switch. (Run after the comparison: traces of the good dump give the path.)
dir=$work/${cases[0]%%|*}
read -r src dst < <(sed -n 's/.*# lid \([0-9]*\) lmc.*/\1/p' "$dir/disc" | sort -n | sed -n '1p;$p' | xargs)
"$FTCLOS" -q trace "$dir/disc" "$dir/opensm-lfts.dump" "$src" "$dst" >"$work/good.out"
python3 - "$dir/opensm-lfts.dump" "$dst" "$work/good.out" "$work" <<'PY'
import re, sys
dump, dlid, good, work = sys.argv[1], int(sys.argv[2]), open(sys.argv[3]).read(), sys.argv[4]
hops = re.findall(r"^hop \d+: switch .* 0x([0-9a-f]+) in (\d+) out (\d+)", good, re.M)
assert len(hops) >= 2, good
def rewrite(guid, port, out):
    blocks = open(dump).read().split("Unicast lids")
    for i, block in enumerate(blocks):
        if "guid 0x%s " % guid in block.split("\n")[0]:
            blocks[i] = re.sub(r"^0x%04x \d{3} " % dlid, "0x%04x %03d " % (dlid, port), block, flags=re.M)
    open(out, "w").write("Unicast lids".join(blocks))
rewrite(hops[0][0], 255, work + "/dropped.dump")
rewrite(hops[1][0], int(hops[1][1]), work + "/looping.dump")
PY
for broken in "dropped|^dropped at switch \".*\" (0x[0-9a-f]*): no entry for LID $dst" \
  "looping|^loop: the packet comes back to switch \".*\" (0x[0-9a-f]*); never delivered"; do
  IFS='|' read -r name expected <<<"$broken"
  rc=0
  "$FTCLOS" -q trace "$dir/disc" "$work/$name.dump" "$src" "$dst" >"$work/$name.out" 2>&1 || rc=$?
  if [ "$rc" != 1 ] || ! grep -q "$expected" "$work/$name.out"; then
    echo "FAIL a $name packet: exit $rc, $(tail -2 "$work/$name.out")"
    failures=$((failures + 1))
  fi
done

echo "trace_ibtracert: $traced LIDs traced on ${#cases[@]} fabrics, $failures differ or fail"
[ "$failures" = 0 ] && [ "$traced" -gt 0 ]
