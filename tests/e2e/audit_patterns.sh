#!/usr/bin/env bash
# `ftclos audit --pattern`: traffic patterns on the audited tables, in the
# summary and the JSON, consistent with the worst case the audit found.
set -euo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$FTCLOS" gen ftree --ports 8 --levels 2 -o "$work/ft.net" 2>/dev/null
"$FTCLOS" audit "$work/ft.net" --scheme osrm --lmc 1 --pattern shift:1 --pattern bit-reversal \
  --pattern permutation --instances 8 --json "$work/audit.json" >"$work/out.txt" 2>/dev/null
grep -q "^traffic patterns (OPTU = baseload" "$work/out.txt"
python3 - "$work/audit.json" <<'PY'
import json, sys
audit = json.load(open(sys.argv[1]))
rows = {row["pattern"]: row for row in audit["patterns"]}
assert set(rows) == {"shift:1", "bit-reversal", "permutation"}, rows.keys()
for name, row in rows.items():
    assert abs(row["ratio_mean"] - row["mload"] / row["optu"]) < 1e-9 or name == "permutation", row
    assert row["optu_is_baseload"] and row["undelivered"] == 0, row
    # A permutation can never load a channel beyond the worst case the audit proved.
    assert row["ratio_max"] <= audit["worst_case_contention"] + 1e-9, (row, audit["worst_case_contention"])
    assert row["ratio_min"] >= 1 - 1e-9, row
print(f"ok: {len(rows)} patterns; worst case {audit['worst_case_contention']}; "
      + ", ".join(f"{n} {r['ratio_mean']:.3f}" for n, r in sorted(rows.items())))
print("3 passed, 0 failed")
PY
