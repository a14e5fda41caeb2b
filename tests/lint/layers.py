#!/usr/bin/env python3
"""Fails when a file in lib/ includes a layer lib/README.md does not allow it,
or when the plugin reaches past the layers it links (core..audit, engine)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
table = re.findall(r"^\| `(\w+)/` \|[^|]*\| ([\w, ]+) \|$", (root / "lib/README.md").read_text(), re.M)
allowed = {layer: {name.strip() for name in names.split(",")} for layer, names in table}
if not allowed:
    sys.exit("layers.py: no layer table found in lib/README.md")
plugin_layers = {"core", "detect", "route", "paths", "schemes", "tables", "audit", "engine"}

include = re.compile(r'^#include "([^"]+)"', re.M)
problems = []
folders = {p.name for p in (root / "lib").iterdir() if p.is_dir()}
for folder in sorted(folders - allowed.keys()):
    problems.append(f"lib/{folder}/ is not in lib/README.md's table")
for path in sorted((root / "lib").glob("*/*")):
    layer = path.parent.name
    for target in include.findall(path.read_text()):
        used = target.split("/")[0]
        if "/" not in target or used not in allowed.get(layer, set()):
            problems.append(f"{path.relative_to(root)}: includes \"{target}\", {layer}/ may include {sorted(allowed.get(layer, []))}")
for path in sorted((root / "plugin").glob("*.[ch]*")):
    for target in include.findall(path.read_text()):
        if "/" in target and target.split("/")[0] in folders and target.split("/")[0] not in plugin_layers:
            problems.append(f"{path.relative_to(root)}: includes \"{target}\", the plugin links {sorted(plugin_layers)} only")
for line in problems:
    print(line)
print(f"layers: {len(allowed)} layers checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
