#!/usr/bin/env bash
# Every JSON report follows its schema in doc/schemas/ (checked with Debian's
# python3-jsonschema) and carries schema_version and meson's version:
# detect on intact, degraded, storage, pod and unrecognizable fabrics; audit of
# one set (scheme or LFT file, full fat-tree or not) and of several side by
# side. A document with a key removed or added must fail the same check.
set -euo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}
root=${FTCLOS_SOURCE_ROOT:?}
topos=$root/ibsim-topos
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's python3 and its python3-jsonschema, not whatever python3 is first on PATH.
PYTHON=/usr/bin/python3
"$PYTHON" -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema missing (scripts/setup.sh installs it)"; exit 1; }

# A triangle of switches: no folded Clos but connected, detect says
# "torus" (a ring of 3) and "any-fabric"; two switches no cable joins: "unknown".
cat >"$work/triangle.net" <<'NET'
Switch 4 "S0"
[1] "S1"[1]
[2] "S2"[1]
[3] "H0"[1]

Switch 4 "S1"
[1] "S0"[1]
[2] "S2"[2]
[3] "H1"[1]

Switch 4 "S2"
[1] "S0"[2]
[2] "S1"[2]
[3] "H2"[1]

Ca 1 "H0"
[1] "S0"[3]

Ca 1 "H1"
[1] "S1"[3]

Ca 1 "H2"
[1] "S2"[3]
NET
cat >"$work/split.net" <<'NET'
Switch 2 "A"
[1] "HA"[1]

Switch 2 "B"
[1] "HB"[1]

Ca 1 "HA"
[1] "A"[1]

Ca 1 "HB"
[1] "B"[1]
NET

# report NAME SCHEMA ARGS...: ftclos ARGS --json, kept as NAME.SCHEMA.json (exit 1 is a finding, fine here).
report() {
  local name=$1 schema=$2
  shift 2
  local rc=0
  "$FTCLOS" -q "$@" --json "$work/$name.$schema.json" >/dev/null 2>"$work/$name.err" || rc=$?
  [ "$rc" -le 1 ] && [ -s "$work/$name.$schema.json" ] || { echo "FAIL ftclos $*: exit $rc: $(cat "$work/$name.err")"; exit 1; }
}
report ft-8-3 detect detect "$topos/ft-8-3.net"
report ft-8-3-fail4 detect detect "$topos/ft-8-3-fail4.net"
report io2 detect detect "$topos/clos2-4-4-8-io2.net"
report mikant detect detect "$topos/mikant-3-3.net"
report triangle detect detect "$work/triangle.net"
report split detect detect "$work/split.net"
# A pod: SHARP ANs, management leaves and rails in the report.
"$FTCLOS" -q gen superpod --units 2 --servers 4 --rails 2 --levels 3 --spines 2 --radix 10 --mgmt-leaves 1 \
  -o "$work/pod.net" 2>/dev/null
report pod detect detect "$work/pod.net"
report osrm audit audit "$topos/ft-8-2.net" --scheme osrm --lmc 1 --pattern ring
report rfc audit audit "$topos/rfc-8-16-3-seed1.net" --scheme updown
"$FTCLOS" -q route "$topos/ft-8-3-fail4.net" -o "$work/fail4.dump" 2>/dev/null
report lft-file audit audit "$topos/ft-8-3-fail4.net" "$work/fail4.dump"
# LMC > 0: the worst case by consumer, with path bits (a scheme's) and without (LFTs alone).
report osrm-lmc3 audit audit "$topos/ft-8-3.net" --scheme osrm --lmc 3
"$FTCLOS" -q route "$topos/ft-8-2.net" --lmc 2 -o "$work/lmc2.dump" 2>/dev/null
report lft-lmc2 audit audit "$topos/ft-8-2.net" "$work/lmc2.dump"
report compare audit audit "$topos/ft-8-3-fail4.net" "$work/fail4.dump" --schemes updown --pattern ring
report fabric-only audit audit "$topos/clos2-2-4-6.net" --schemes dmodk,osrm

"$PYTHON" - "$root/doc/schemas" "$VERSION" "$work"/*.json <<'PY'
import copy, json, pathlib, sys
import jsonschema

schema_dir, version, paths = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
schemas = {}
for path in sorted(schema_dir.glob("*.schema.json")):
    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    schemas[path.name.split(".")[0]] = cls(schema)

failures = 0
def fail(what):
    global failures
    failures += 1
    print("FAIL", what)

seen = set()
for path in paths:
    kind = path.rsplit(".", 2)[-2]
    doc = json.load(open(path))
    validator = schemas[kind]
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for error in errors[:3]:
        fail(f"{pathlib.Path(path).name}: {'/'.join(map(str, error.path))}: {error.message[:200]}")
    if doc.get("ftclos_version") != version:
        fail(f"{pathlib.Path(path).name}: ftclos_version {doc.get('ftclos_version')!r}, meson says {version!r}")
    seen.update(doc)
    # The check must be able to fail: without schema_version, or with a key the schema does not know.
    for broken, why in [({k: v for k, v in doc.items() if k != "schema_version"}, "without schema_version"),
                        (dict(doc, surprise=1), "with an unknown key")]:
        if validator.is_valid(broken):
            fail(f"{pathlib.Path(path).name} {why} passes its schema")

def family_of(name):
    return [json.load(open(p))["families"][0] for p in paths if pathlib.Path(p).name.startswith(name + ".")]
triangle, split = family_of("triangle"), family_of("split")
if [f["name"] for f in triangle] != ["torus"]:
    fail(f"the triangle should be a torus (a ring of 3), detect says {triangle}")
triangle_all = [json.load(open(p))["families"] for p in paths if pathlib.Path(p).name.startswith("triangle.")]
if not any(f["name"] == "any-fabric" and "roots_chosen" in f["params"] for fs in triangle_all for f in fs):
    fail(f"the triangle should be an any-fabric with its roots too, detect says {triangle_all}")
if [f["name"] for f in split] != ["unknown"]:
    fail(f"two unjoined switches should be an unknown family, detect says {split}")
for key in ["compare", "oblivious_ratio_note", "links", "io_hosts", "deviations"]:
    if key not in seen:
        fail(f"no report had {key!r}: the schemas' optional parts went unchecked")
print(f"{len(paths)} reports valid against {len(schemas)} schemas ({', '.join(sorted(schemas))}); "
      f"broken copies all rejected" if not failures else f"{failures} failures")
sys.exit(1 if failures else 0)
PY
