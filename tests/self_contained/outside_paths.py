#!/usr/bin/env python3
"""No test, script or CMake file names a path outside the repository.

A clone in an empty folder must build and pass its tests: every input a test
reads is in the repository (the real captures are in fixtures/real/). This
scans tests/, ci/, .ci/, cmake/, python/ and the top CMake files for

  - the names of the old sibling folder and its variable (the folder named shared beside the checkout,
    HWACCEL_SHARED_DIR, real-captures, shared_path);
  - absolute paths of our own machines (/work/; tests' /home/alice is snapshot data);
  - a path built from the source folder that climbs out of it: in CMake
    ${PROJECT_SOURCE_DIR}/.., ${CMAKE_CURRENT_SOURCE_DIR}/../.. and the like, in
    shell "$(dirname "$0")/../..", in Python os.path.join(ROOT, "..").

Usage: outside_paths.py SOURCE_DIR      (exit 0: clean; 1: a finding per line)
       outside_paths.py --self-test     (the checks catch what they should)
"""
import os
import re
import sys

SCANNED = ["tests", "ci", ".ci", "cmake", "python", "CMakeLists.txt", "CMakePresets.json"]
SKIPPED_DIRS = {"__pycache__", "build"}
TEXT_SUFFIXES = {"", ".txt", ".cmake", ".in", ".json", ".sh", ".py", ".cpp", ".h", ".c", ".toml", ".cfg"}

# Split so that this file does not name them itself.
NAMED = [
    (re.compile(r"\.\./" + "shared\\b"), "the sibling folder ../" + "shared"),
    (re.compile("HWACCEL_" + "SHARED_DIR"), "the sibling folder's variable"),
    (re.compile("real" + "-captures"), "the sibling folder's captures (now fixtures/real)"),
    (re.compile(r"\bshared" + r"_path\("), "the sibling folder's helper"),
    (re.compile(r"(?<![\w.])/work/"), "an absolute path of our own machines"),
]

CMAKE_ROOTS = re.compile(
    r"\$\{(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}"
    r"((?:/[^\s\"');$]*)?)")
SHELL_ROOT = re.compile(r"\$\(dirname \"\$0\"\)((?:/[^\s\"')]*)?)")
PY_JOIN = re.compile(r"os\.path\.join\((ROOT|HERE)((?:\s*,\s*\"[^\"]*\")*)")


def escapes(base, suffix, repo):
    """Whether base + suffix (a relative path) leaves repo."""
    path = os.path.normpath(os.path.join(base, suffix.lstrip("/")))
    return os.path.relpath(path, repo).startswith("..")


def findings_in(rel, text, repo):
    out = []
    here = os.path.dirname(os.path.join(repo, rel))
    is_cmake = rel.endswith((".cmake", "CMakeLists.txt"))
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{rel}:{n}"
        for pattern, why in NAMED:
            if pattern.search(line):
                out.append(f"{where}: {why}: {line.strip()}")
        if is_cmake:
            for var, suffix in CMAKE_ROOTS.findall(line):
                base = here if var.startswith("CMAKE_CURRENT") else repo
                if escapes(base, suffix, repo):
                    out.append(f"{where}: ${{{var}}}{suffix} is outside the repository")
        for suffix in SHELL_ROOT.findall(line):
            if escapes(here, suffix, repo):
                out.append(f"{where}: $(dirname \"$0\"){suffix} is outside the repository")
        if rel.endswith(".py"):
            for var, parts in PY_JOIN.findall(line):
                # ROOT is the repository's root in our scripts; HERE the script's folder.
                base = repo if var == "ROOT" else here
                suffix = "/".join(re.findall(r"\"([^\"]*)\"", parts))
                if escapes(base, suffix, repo):
                    out.append(f"{where}: os.path.join({var}, ...) climbs out of the repository")
    return out


def scan(repo):
    me = os.path.abspath(__file__)
    found = []
    for top in SCANNED:
        start = os.path.join(repo, top)
        paths = [start] if os.path.isfile(start) else []
        for d, dirs, files in os.walk(start):
            dirs[:] = sorted(x for x in dirs if x not in SKIPPED_DIRS and not x.startswith("build"))
            paths += [os.path.join(d, f) for f in sorted(files)]
        for path in paths:
            if os.path.abspath(path) == me or os.path.splitext(path)[1] not in TEXT_SUFFIXES:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                found += findings_in(os.path.relpath(path, repo), f.read(), repo)
    return found


def self_test():
    repo = "/r"
    bad = [
        ("tests/CMakeLists.txt", 'X="${PROJECT_SOURCE_DIR}/..' + '/shared"'),
        ("tests/CMakeLists.txt", "${CMAKE_CURRENT_SOURCE_DIR}/../../elsewhere"),
        ("ci/fuzz", 'cd "$(dirname "$0")/../.."'),
        ("tests/fuzz/make_seeds.py", 'os.path.join(ROOT, "..", "x")'),
        ("tests/a_test.cpp", 'slurp("/work/' + 'main/x")'),
        ("tests/a_test.cpp", "real" + "-captures/x.txt"),
    ]
    good = [
        ("tests/CMakeLists.txt", "${CMAKE_CURRENT_SOURCE_DIR}/../fixtures"),
        ("tests/CMakeLists.txt", "${PROJECT_SOURCE_DIR}/fixtures/real"),
        ("ci/fuzz", 'cd "$(dirname "$0")/.."'),
        ("tests/fuzz/make_seeds.py", 'os.path.join(ROOT, "fixtures", "real")'),
        ("tests/a_test.cpp", 'b.link("/sys/class/drm/card0/device", "../../../bus/pci")'),
    ]
    failures = [f"not caught: {rel}: {line}" for rel, line in bad if not findings_in(rel, line, repo)]
    failures += [f"wrongly caught: {x}" for rel, line in good for x in findings_in(rel, line, repo)]
    return failures


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--self-test":
        failures = self_test()
    else:
        failures = scan(os.path.abspath(sys.argv[1]))
    for f in failures:
        print(f)
    if failures:
        print(f"{len(failures)} finding(s): tests must read only what the repository holds",
              file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
