#!/usr/bin/env python3
"""Validates every golden JSON output against its JSON Schema in docs/schemas.

Which schema applies is read from the document's own "schema" field
("hwaccel-detect/1" -> docs/schemas/hwaccel-detect-1.schema.json), so a golden
that names no known schema fails too. Also checks that the schemas themselves
are valid JSON Schema (draft 2020-12).
"""
import glob
import json
import os
import sys

import jsonschema

root = sys.argv[1]
schemas = {}
for path in sorted(glob.glob(os.path.join(root, "docs/schemas/*.schema.json"))):
    with open(path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    schemas[os.path.basename(path)[: -len(".schema.json")]] = schema

goldens = sorted(glob.glob(os.path.join(root, "fixtures/hosts/*.expected/*.json")))
# Plan, train and cost goldens (tests/golden/plans) come after, so goldens[0] stays a detect document.
goldens += sorted(glob.glob(os.path.join(root, "tests/golden/plans/*.json")))
# Kernel-plan goldens (docs/kernel-tree.md).
goldens += sorted(glob.glob(os.path.join(root, "fixtures/kernels/plans/*.json")))
if not goldens:
    sys.exit("no golden JSON found under fixtures/hosts/*.expected/")
failures = 0
bad_documents = 0
for path in goldens:
    with open(path) as f:
        doc = json.load(f)
    name = str(doc.get("schema", "")).replace("/", "-")
    if name not in schemas:
        print(f"FAIL {path}: schema {doc.get('schema')!r} has no docs/schemas/{name}.schema.json")
        failures += 1
        bad_documents += 1
        continue
    errors = sorted(jsonschema.Draft202012Validator(schemas[name]).iter_errors(doc), key=str)
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path)
        print(f"FAIL {path}: at /{where}: {error.message}")
    failures += len(errors)
    bad_documents += 1 if errors else 0
# The schemas must be able to fail: a document with a status no reader knows.
with open(goldens[0]) as f:
    broken = json.load(f)
broken["backends"] = [{"name": "cpu", "status": "maybe", "reason": None, "devices": 1}]
if jsonschema.Draft202012Validator(schemas["hwaccel-detect-1"]).is_valid(broken):
    print("FAIL the detect schema accepts a backend status of 'maybe'")
    bad_documents += 1

print(f"{len(goldens) - bad_documents} passed, {bad_documents} failed "
      f"({len(goldens)} golden documents, {len(schemas)} schemas, {failures} errors)")
sys.exit(1 if failures else 0)
