#!/usr/bin/env bash
# `ftclos audit --compare FILE... / --schemes S,..`: several sets of tables on
# a degraded FT(8,3) (4 cables cut, where dmodk and updown differ) in one
# comparison, each row what auditing that set alone says (the
# single audits are run here, nothing is hard-coded), and bad compare input
# rejected with exit 2 and the file named.
set -euo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}
pass() { passed=$((passed + 1)); }

net=$work/ft.net
"$FTCLOS" gen ftree --ports 8 --levels 3 --fail-links 4 --seed 1 -o "$net" 2>/dev/null
# D-mod-k's own repair (no contention polish, which brings the two together).
"$FTCLOS" route "$net" --scheme dmodk --no-polish -o "$work/a.dump" 2>/dev/null
"$FTCLOS" route "$net" --scheme updown -o "$work/b.dump" 2>/dev/null

# audit NAME ARGS...: `ftclos audit` with two patterns into $work/NAME.{json,txt,err}; exit status in $rc.
# (the sets differ in worst case, and osrm also in bit-reversal, so swapped rows show.)
audit() {
  local name=$1
  shift
  rc=0
  "$FTCLOS" audit "$net" "$@" --pattern shift:1 --pattern bit-reversal --json "$work/$name.json" \
    >"$work/$name.txt" 2>"$work/$name.err" || rc=$?
}

# same_rows COMPARE.json 'LABEL=SINGLE.json'...: each labelled `compare` row
# equals the single audit's numbers; the labels are exactly those, in order.
same_rows() {
  python3 - "$@" <<'PY'
import json, sys
compare = json.load(open(sys.argv[1]))
expected = [arg.split("=", 1) for arg in sys.argv[2:]]
rows = compare["compare"]
labels = [row["label"] for row in rows]
assert labels == [label for label, _ in expected], labels
keys = ["pairs", "unreachable", "loops", "credit_loops", "updown_violations", "non_minimal",
        "worst_case_contention", "exact", "lmc", "offsets"]
for row, (label, path) in zip(rows, expected):
    single = json.load(open(path))
    for key in keys:
        assert row[key] == single[key], (label, key, row[key], single[key])
    assert row["oblivious_ratio"] == single["oblivious_ratio"], (label, row["oblivious_ratio"])
    assert [p["pattern"] for p in row["patterns"]] == ["shift:1", "bit-reversal"], (label, row["patterns"])
    assert len(single["patterns"]) == 2, (label, single["patterns"])
    for mine, alone in zip(row["patterns"], single["patterns"]):
        for key in ["pattern", "ratio_mean", "ratio_max", "mload", "optu", "undelivered"]:
            assert mine[key] == alone[key], (label, mine["pattern"], key, mine[key], alone[key])
print(", ".join(f"{row['label']}: worst {row['worst_case_contention']:g}, ratios "
                + " ".join(f"{p['pattern']} {p['ratio_mean']:.3f}" for p in row["patterns"]) for row in rows))
PY
}

# 1. Two dumps compared, against each audited alone.
audit compare --compare "$work/a.dump" "$work/b.dump"
compare_rc=$rc
audit a "$work/a.dump"
a_rc=$rc
audit b "$work/b.dump"
b_rc=$rc
expected_rc=$((a_rc > b_rc ? a_rc : b_rc))
if [ "$a_rc" -eq 2 ] || [ "$b_rc" -eq 2 ]; then
  fail "single audits failed: a $a_rc, b $b_rc"; cat "$work/a.err" "$work/b.err"
elif [ "$compare_rc" -ne "$expected_rc" ]; then
  fail "--compare exits $compare_rc, the single audits $a_rc and $b_rc"; cat "$work/compare.err"
elif ! same_rows "$work/compare.json" "a.dump=$work/a.json" "b.dump=$work/b.json"; then
  fail "--compare rows differ from the single audits"
else
  pass
fi
# The two sets must really differ, or the rows could be swapped unnoticed.
worst() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["worst_case_contention"])' "$1"; }
if [ "$(worst "$work/a.json")" = "$(worst "$work/b.json")" ]; then
  fail "dmodk and updown have the same worst case $(worst "$work/a.json") on the degraded FT(8,3): the test cannot tell the rows apart"
else
  pass
fi
# No primary set: the document is the comparison, not one set's detail.
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit("tables" in d or "links" in d)' \
  "$work/compare.json" && grep -q '^comparison:' "$work/compare.txt" && grep -q '^a\.dump ' "$work/compare.txt" &&
  grep -q '^b\.dump ' "$work/compare.txt"; then
  pass
else
  fail "--compare without LFT files: wrong JSON keys or no comparison table"; cat "$work/compare.txt"
fi

# 2. --schemes, each on its own LMC and offsets, against --scheme at that LMC.
audit schemes --schemes dmodk,osrm
if [ "$rc" -eq 2 ]; then
  fail "--schemes dmodk,osrm exits 2"; cat "$work/schemes.err"
else
  singles=()
  for scheme in dmodk osrm; do
    lmc=$(python3 -c 'import json, sys; print(next(r["lmc"] for r in json.load(open(sys.argv[1]))["compare"]
          if r["label"] == sys.argv[2]))' "$work/schemes.json" "$scheme")
    # The LMC the scheme asks for on this fabric, as `ftclos route` reports it.
    needed=$("$FTCLOS" route "$net" --scheme "$scheme" 2>&1 >/dev/null | sed -n 's/^LMC: .* given, \([0-9]*\) needed$/\1/p')
    [ "$lmc" = "$needed" ] || fail "--schemes routed $scheme at LMC $lmc; it needs LMC ${needed:-?}"
    audit "$scheme" --scheme "$scheme" --lmc "$lmc"
    singles+=("$scheme=$work/$scheme.json")
  done
  if same_rows "$work/schemes.json" "${singles[@]}"; then pass; else fail "--schemes rows differ from --scheme"; fi
fi

# 3. All three kinds at once: the positional set first and in full, labelled as alone.
audit mixed "$work/a.dump" --compare "$work/b.dump" --schemes osrm --html "$work/mixed.html"
if [ "$rc" -eq 2 ]; then
  fail "LFT + --compare + --schemes exits 2"; cat "$work/mixed.err"
elif ! python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); a = json.load(open(sys.argv[2]))
assert [r["label"] for r in d["compare"]] == ["LFTs", "b.dump", "osrm"], d["compare"]
assert d["worst_case_contention"] == a["worst_case_contention"] and d["links"] == a["links"]' \
  "$work/mixed.json" "$work/a.json"; then
  fail "LFT + --compare + --schemes: wrong rows or primary detail"
elif ! python3 -c 'import re, sys; page = open(sys.argv[1]).read()
table = page[page.index("<section id=\"compare\""):]
table = table[:table.index("</section>")]
assert re.findall("<tr><td>([^<]*)</td>", table) == ["LFTs", "b.dump", "osrm"], table
assert "<section id=\"heatmap\"" in page' "$work/mixed.html"; then
  fail "the HTML page lacks a compared set or the primary set's heatmap"
else
  pass
fi

# 4. Tables read from files alone carry auto's figure on the same fabric
# (the reference), equal to auditing `--scheme auto` itself; not with --no-reference.
audit reference "$work/b.dump"
audit auto --scheme auto
"$FTCLOS" audit "$net" "$work/b.dump" --no-reference --json "$work/plain.json" >"$work/plain.txt" 2>/dev/null || true
if ! python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["reference"]; a = json.load(open(sys.argv[2]))
assert r["tables"] == a["tables"] and r["tables"].startswith("scheme auto chose "), (r, a["tables"])
assert r["worst_case_contention"] == a["worst_case_contention"], (r, a["worst_case_contention"])
assert "reference" not in json.load(open(sys.argv[3]))' "$work/reference.json" "$work/auto.json" "$work/plain.json"; then
  fail "the reference is not what auditing --scheme auto says, or --no-reference keeps it"
elif ! grep -q "^ftclos on this fabric: scheme auto chose " "$work/reference.txt" ||
  grep -q "^ftclos on this fabric" "$work/plain.txt"; then
  fail "the text lacks the reference line (or --no-reference prints it)"
else
  pass
  grep "^ftclos on this fabric" "$work/reference.txt"
fi

# 5. Bad input: exit 2, and the message names the bad compare file.
sed '0,/^Unicast lids/s//Unicast lids [broken/' "$work/b.dump" >"$work/broken.dump"
if ! grep -q 'broken' "$work/broken.dump"; then
  fail "could not make a broken dump from $(head -1 "$work/b.dump")"
fi
for bad in "$work/broken.dump" "$work/missing.dump"; do
  audit bad "$work/a.dump" --compare "$bad"
  if [ "$rc" -ne 2 ]; then
    fail "--compare $bad exits $rc, not 2"
  elif ! grep -q "$bad" "$work/bad.err"; then
    fail "--compare $bad: the message does not name the file:"; cat "$work/bad.err"
  else
    pass
    sed 's/^/  /' "$work/bad.err" | grep -v ' s)$' || true
  fi
done
audit bad --schemes dmodk,nosuch
if [ "$rc" -eq 2 ] && grep -q nosuch "$work/bad.err"; then pass; else fail "--schemes nosuch exits $rc"; fi

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
