#!/usr/bin/env python3
"""Every `#include "..."` follows the layer table in docs/layers.md.

The table names each layer's folders and the layers it may include (its own is
always allowed). This reads every C and C++ source of the repository, resolves
each quoted include the way the compiler does (beside the file, then the
repository root, then include/), and reports an include of a layer the row
does not name as `FILE:LINE: ...`. A source in no layer's folder is a finding
too (a new folder goes into the table), and so is an exception (the table's
second part) without a reason or that no longer matches any include.

Usage: check_layers.py SOURCE_DIR    (exit 0: clean; 1: a finding per line)
       check_layers.py --self-test   (the check catches what it should)
"""
import os
import re
import sys

TABLE = "docs/layers.md"
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c", ".inc")
# Not sources: build trees, git, data (fixtures/ holds kernel sources of test trees).
SKIPPED_TOP = {"fixtures", "docs", "data", "deploy", "ci", ".ci", ".git", "cmake"}
INCLUDE_DIRS = ["", "include"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


class TableError(Exception):
    pass


def table_rows(text, header):
    """The rows (lists of cells) of the markdown table whose header is `header`."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            if inside:
                break
            continue
        if not inside:
            if [c.lower() for c in cells] == header:
                inside = True
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the |---| line
        rows.append(cells)
    if not inside:
        raise TableError(f"{TABLE}: no table with the header | {' | '.join(header)} |")
    return rows


def read_table(text):
    """(folders -> layer, layer -> allowed layers, exceptions) from the table file."""
    folders, allowed = {}, {}
    for cells in table_rows(text, ["layer", "folders", "may include"]):
        if len(cells) != 3:
            raise TableError(f"{TABLE}: a layer row needs 3 cells: {cells}")
        layer, paths, may = cells
        for path in re.findall(r"`([^`]+)`", paths):
            folders[path.rstrip("/") + "/"] = layer
        allowed[layer] = may
    names = set(allowed)
    for layer, may in allowed.items():
        if may == "every layer":
            allowed[layer] = set(names)
            continue
        words = set() if may == "nothing" else {w.strip() for w in may.split(",")}
        unknown = words - names
        if unknown:
            raise TableError(f"{TABLE}: layer {layer} may include an unknown layer: {sorted(unknown)}")
        allowed[layer] = words | {layer}
    exceptions = []
    for cells in table_rows(text, ["file", "includes", "why"]):
        if len(cells) != 3:
            raise TableError(f"{TABLE}: an exception row needs 3 cells: {cells}")
        exceptions.append(tuple(c.strip("`") for c in cells))
    return folders, allowed, exceptions


def layer_of(path, folders):
    best = None
    for folder in folders:
        if path.startswith(folder) and (best is None or len(folder) > len(best)):
            best = folder
    return folders[best] if best else None


def resolve(source, name, files):
    """The repository path `#include "name"` in `source` names, or None (generated, system)."""
    here = os.path.dirname(source)
    for base in [here] + INCLUDE_DIRS:
        candidate = os.path.normpath(os.path.join(base, name))
        if candidate in files:
            return candidate
    return None


def check(files, table_text):
    """Findings for `files` (repository path -> text) under the table."""
    try:
        folders, allowed, exceptions = read_table(table_text)
    except TableError as e:
        return [str(e)]
    findings, used = [], set()
    for path in sorted(files):
        layer = layer_of(path, folders)
        if layer is None:
            findings.append(f"{path}: in no layer's folder of {TABLE} (add its folder to a row)")
            continue
        for number, line in enumerate(files[path].splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = resolve(path, m.group(1), files)
            if target is None:
                continue
            target_layer = layer_of(target, folders)
            if target_layer is None or target_layer in allowed[layer]:
                continue
            key = (path, target)
            if any((f, t) == key for f, t, _ in exceptions):
                used.add(key)
                continue
            others = ", ".join(sorted(allowed[layer] - {layer})) or "nothing"
            findings.append(f"{path}:{number}: includes {target}: layer {layer} may not include"
                            f" layer {target_layer} ({TABLE}: {layer} may include {others})")
    for f, t, why in exceptions:
        if not why:
            findings.append(f"{TABLE}: the exception {f} -> {t} gives no reason")
        if (f, t) not in used:
            findings.append(f"{TABLE}: the exception {f} -> {t} matches no forbidden include (remove it)")
    return findings


def read_sources(repo):
    files = {}
    for top in sorted(os.listdir(repo)):
        if top in SKIPPED_TOP or top.startswith((".", "build")):
            continue
        start = os.path.join(repo, top)
        if os.path.isfile(start):
            if top.endswith(SOURCE_SUFFIXES):
                files[top] = open(start, encoding="utf-8", errors="replace").read()
            continue
        for root, dirs, names in os.walk(start):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build")) and d != "__pycache__")
            for name in names:
                if name.endswith(SOURCE_SUFFIXES):
                    full = os.path.join(root, name)
                    with open(full, encoding="utf-8", errors="replace") as f:
                        files[os.path.relpath(full, repo)] = f.read()
    return files


def self_test():
    """The check on planted trees: each case must give exactly the findings expected."""
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    with open(os.path.join(repo, TABLE), encoding="utf-8") as f:
        real_table = f.read()
    # The planted trees are checked against the real layers with no exceptions.
    table = real_table.split("## Exceptions")[0] + "| file | includes | why |\n|---|---|---|\n"
    failures = []

    def expect(name, files, wanted, table_text=table):
        got = check(files, table_text)
        if len(got) != len(wanted) or not all(w in g for w, g in zip(wanted, got)):
            failures.append(f"{name}: expected {wanted}, got {got}")

    clean = {
        "src/vocabulary/result.h": "#pragma once\n",
        "src/snapshot/snapshot.h": '#pragma once\n#include "src/vocabulary/result.h"\n',
        "src/host/host.h": '#include "src/vocabulary/result.h"\n#include "src/snapshot/snapshot.h"\n',
        "src/probe/text.h": "#pragma once\n",
        "src/report/json.h": "#pragma once\n",
        "cli/main.cpp": '#include "src/host/host.h"\n#include <vector>\n#include "generated/x.h"\n',
        "tests/unit/any_test.cpp": '#include "cli/main.cpp"\n',
    }
    expect("a clean tree", clean, [])
    expect("the snapshot includes the door",
           dict(clean, **{"src/snapshot/codec.cpp": '// the codec\n\n#include "src/host/host.h"\n'}),
           ["src/snapshot/codec.cpp:3: includes src/host/host.h: layer snapshot "
            "may not include layer host (docs/layers.md: snapshot may include vocabulary)"])
    expect("the door includes a probe's helpers",
           dict(clean, **{"src/host/facts.cpp": ' #  include "../probe/text.h"\n'}),
           ["src/host/facts.cpp:1: includes src/probe/text.h: layer host"])
    expect("the registry includes a renderer",
           dict(clean, **{"src/registry/cache.cpp": '#include "src/report/json.h"\n'}),
           ["src/registry/cache.cpp:1: includes src/report/json.h: layer registry"])
    expect("a folder in no layer", dict(clean, **{"newdir/a.cpp": ""}),
           ["newdir/a.cpp: in no layer's folder"])
    wrong = dict(clean, **{"src/snapshot/codec.cpp": '#include "src/host/host.h"\n'})
    excepted = table + "| `src/snapshot/codec.cpp` | `src/host/host.h` | a reason |\n"
    expect("an exception with a reason", wrong, [], excepted)
    expect("an exception without one", wrong,
           [f"{TABLE}: the exception src/snapshot/codec.cpp -> src/host/host.h gives no reason"],
           table + "| `src/snapshot/codec.cpp` | `src/host/host.h` | |\n")
    expect("an exception that matches nothing", clean, ["matches no forbidden include"], excepted)
    expect("an unknown layer in a row", clean, ["may include an unknown layer"],
           table.replace("| vocabulary |\n", "| vocabulary, door |\n", 1))
    # The repository itself with one wrong include planted: exactly that one finding.
    planted = read_sources(repo)
    planted["src/snapshot/planted.cpp"] = '#include "src/report/detect_json.h"\n'
    got = check(planted, real_table)
    real = check(read_sources(repo), real_table)
    extra = [g for g in got if g not in real]
    if len(extra) != 1 or not extra[0].startswith("src/snapshot/planted.cpp:1: includes src/report/"):
        failures.append(f"planted in the repository: expected one finding, got {extra}")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    repo = argv[1]
    with open(os.path.join(repo, TABLE), encoding="utf-8") as f:
        table = f.read()
    files = read_sources(repo)
    findings = check(files, table)
    for line in findings:
        print(line)
    if not files:
        print(f"no sources found under {repo}")
        return 1
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
