#!/usr/bin/env python3
"""Every --json of every hwaccel command, on every fixture host, validates
against the schema its "schema" field names (docs/schemas/NAME-N.schema.json).

The goldens are checked by validate_goldens.py; this runs the program itself,
so a document no golden holds (select, the summary, a request that nothing
satisfies) is checked too. A command may print nothing and exit non-zero (no
document); whatever it prints on stdout must be one valid document.

Usage: cli_json_validate.py HWACCEL SOURCE_DIR
"""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

import jsonschema

# After `hwaccel`, with --host HOST appended; each runs on every fixture host.
PER_HOST = [
    ["detect", "--json"],
    ["detect", "--summary", "--json"],
    ["devices", "--json"],
    ["select", "--json"],
    ["select", "--json", "--require", "gpu"],
    ["select", "--json", "--require", "gpu", "--require", "mem>=40G"],
    ["plan", "--json", "--model", "Llama-3-8B"],
    ["train", "--json", "--model", "Llama-3-8B", "--method", "lora"],
]
# Not here: `io --json` (hwaccel-io/1 has no published schema yet).
# Commands that read no host.
ONCE = [
    ["cost", "--json", "--model", "Llama-3-70B"],
    ["plan", "--kernels", "fixtures/kernels", "--hardware", "h100-sxm", "--model", "Llama-3.1-8B",
     "--format", "json"],
]


def load_schemas(root):
    schemas = {}
    for path in sorted(glob.glob(os.path.join(root, "docs/schemas/*.schema.json"))):
        with open(path) as f:
            schemas[os.path.basename(path)[: -len(".schema.json")]] = json.load(f)
    return schemas


def problems_of(out, code, schemas):
    """What is wrong with one run's stdout (empty list: nothing)."""
    if not out.strip():
        return [] if code != 0 else ["exit 0 with no document"]
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        return [f"not one JSON document: {e}"]
    name = str(doc.get("schema", "")).replace("/", "-") if isinstance(doc, dict) else ""
    if name not in schemas:
        return [f"schema {name!r} has no docs/schemas/{name}.schema.json"]
    validator = jsonschema.Draft202012Validator(schemas[name])
    return [f"at /{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=str)]


def run(hwaccel, root, args, schemas):
    r = subprocess.run([hwaccel] + args, cwd=root, capture_output=True, text=True, timeout=120)
    return args, r.returncode, problems_of(r.stdout, r.returncode, schemas), r.stdout


def main():
    hwaccel, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    schemas = load_schemas(root)
    hosts = sorted(glob.glob(os.path.join(root, "fixtures/hosts/*.yaml")))
    if not hosts or not schemas:
        sys.exit("no fixture hosts or no schemas under " + root)
    runs = [c + ["--host", os.path.relpath(h, root)] for h in hosts for c in PER_HOST] + ONCE
    failed = 0
    seen = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for args, code, problems, out in pool.map(lambda a: run(hwaccel, root, a, schemas), runs):
            if out.strip():
                seen.setdefault(args[0], out)
            for p in problems:
                print(f"FAIL hwaccel {' '.join(args)} (exit {code}): {p}")
            failed += bool(problems)
    # The check can fail: a select document without its source is refused.
    if "select" in seen:
        doc = json.loads(seen["select"])
        doc.pop("source", None)
        if not problems_of(json.dumps(doc), 0, schemas):
            print("FAIL the select schema accepts a document without 'source'")
            failed += 1
    else:
        print("FAIL no select run printed a document")
        failed += 1
    print(f"{len(runs) - failed} of {len(runs)} runs printed valid documents "
          f"({len(hosts)} hosts, {len(schemas)} schemas)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
