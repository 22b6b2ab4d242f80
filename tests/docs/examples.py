#!/usr/bin/env python3
"""The examples in README.md and docs/*.md are this build's output.

An example is a fenced block whose first line starts with "$ ": each "$ "
line is a command (a line ending in a backslash continues on the next), and
the lines up to the next "$ " line are what it prints (stdout and stderr, as
a terminal shows them). The test runs every command with `sh -c` and compares
the block with what the commands print, byte for byte.

The commands run in a scratch folder that holds the repository's top-level
entries as links and `build/` as a link to the build folder, with only the
built programs and /usr/bin:/bin on PATH and a clean environment, so they read
fixture hosts (`--host fixtures/hosts/...`, `hwsim replay`), never the machine
the test runs on, and files they write land in the scratch folder. A command
must exit 0: one whose failure is the point ends in `; echo "exit $?"`.

A block that cannot be run here (a real GPU node, a cluster, a program the
repository does not have) is not an example: the line before its fence says
so to the reader, in italics, starting with "*Not generated" (for instance
"*Not generated here: `slurmd -G` on a real node.*"), and the test skips it.

HWACCEL_REGENERATE_GOLDEN=1 (the switch of every golden) rewrites the blocks
in place; read the diff before committing it.

Usage: examples.py SOURCE_DIR BUILD_DIR     (exit 0: all match; 1: a diff per block)
       examples.py --self-test              (parsing and rewriting on a sample)
"""
import difflib
import glob
import os
import subprocess
import sys
import tempfile

PROGRAMS = ["hwaccel", "hwsim", "hwaccel-nvml"]
NOT_GENERATED = "*Not generated"
TIMEOUT_S = 120


class Block:
    def __init__(self, path, first, last, lines, skipped):
        self.path = path        # the document
        self.first = first      # index of the first body line (after the opening fence)
        self.last = last        # index of the closing fence
        self.lines = lines      # the body
        self.skipped = skipped  # labelled "*Not generated ..."

    def where(self):
        return f"{self.path}:{self.first}"

    def steps(self):
        """[(command, expected output)] of the block."""
        out = []
        i = 0
        while i < len(self.lines):
            line = self.lines[i]
            assert line.startswith("$ "), line
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(self.lines):
                i += 1
                command += "\n" + self.lines[i]
            i += 1
            output = []
            while i < len(self.lines) and not self.lines[i].startswith("$ "):
                output.append(self.lines[i])
                i += 1
            out.append((command, "".join(l + "\n" for l in output)))
        return out


def blocks_of(path, text):
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1:j]
            if body and body[0].startswith("$ "):
                # The paragraph before the fence: its first line carries the label.
                k = i - 1
                while k >= 0 and not lines[k].strip():
                    k -= 1
                while k > 0 and lines[k - 1].strip() and not lines[k - 1].startswith("```"):
                    k -= 1
                skipped = k >= 0 and lines[k].lstrip().startswith(NOT_GENERATED)
                out.append(Block(path, i + 1, j, body, skipped))
            i = j + 1
        else:
            i += 1
    return out


def rewritten(text, replacements):
    """text with each block's body replaced: replacements is [(Block, [lines])]."""
    lines = text.split("\n")
    for block, body in sorted(replacements, key=lambda r: -r[0].first):
        lines[block.first:block.last] = body
    return "\n".join(lines)


def scratch_folder(src, build):
    work = tempfile.mkdtemp(prefix="hwaccel-examples.")
    for name in os.listdir(src):
        if name not in ("build", ".git"):
            os.symlink(os.path.join(src, name), os.path.join(work, name))
    os.symlink(build, os.path.join(work, "build"))
    bindir = os.path.join(work, ".bin")
    os.mkdir(bindir)
    for p in PROGRAMS:
        if os.path.exists(os.path.join(build, p)):
            os.symlink(os.path.join(build, p), os.path.join(bindir, p))
    return work, bindir


def run(command, work, bindir):
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "HOME": work, "LC_ALL": "C.UTF-8", "TMPDIR": work,
           "TERM": "dumb"}
    try:
        r = subprocess.run(["sh", "-c", command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"(timed out after {TIMEOUT_S} s)\n"
    return r.returncode, r.stdout.decode("utf-8", "replace")


def documents(src):
    return [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))


def main(src, build):
    src, build = os.path.abspath(src), os.path.abspath(build)
    regenerate = os.environ.get("HWACCEL_REGENERATE_GOLDEN") == "1"
    work, bindir = scratch_folder(src, build)
    failures = []
    counts = {"run": 0, "skipped": 0}
    try:
        for doc in documents(src):
            text = open(doc, encoding="utf-8").read()
            rel = os.path.relpath(doc, src)
            replacements = []
            for block in blocks_of(rel, text):
                if block.skipped:
                    counts["skipped"] += 1
                    continue
                counts["run"] += 1
                body = []
                failed = False
                for command, expected in block.steps():
                    code, actual = run(command, work, bindir)
                    body += ("$ " + command).split("\n") + actual.split("\n")[:-1]
                    if not actual.endswith("\n") and actual:
                        failures.append(f"{block.where()}: `{command}` prints no final newline")
                    if code != 0:
                        failed = True
                        failures.append(f"{block.where()}: `{command}` exits {code}:\n{actual}")
                    elif actual != expected and not regenerate:
                        diff = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                    "in " + rel, "printed")
                        failures.append(f"{block.where()}: `{command}` prints otherwise:\n"
                                        + "".join(diff))
                if not failed:  # a block is rewritten only with what its commands print on success
                    replacements.append((block, body))
            if regenerate:
                new = rewritten(text, replacements)
                if new != text:
                    with open(doc, "w", encoding="utf-8") as f:
                        f.write(new)
                    print(f"rewrote {rel}")
    finally:
        subprocess.run(["rm", "-rf", work])
    for f in failures:
        print(f)
    print(f"{counts['run']} example blocks run, {counts['skipped']} labelled not generated, "
          f"{len(failures)} failures"
          + ("" if regenerate or not failures else
             " (after a deliberate change: HWACCEL_REGENERATE_GOLDEN=1, then read the diff)"))
    if counts["run"] == 0:
        print("no example block found: the parser or the documents are broken")
        return 1
    return 1 if failures else 0


def self_test():
    doc = ("intro\n```\n$ echo a \\\n  b\na b\n$ printf 'x\\ny\\n'\nx\n```\n"
           "*Not generated: a cluster,\nof course.*\n\n```\n$ kubectl get nodes\nnode-1\n```\n"
           "```sh\nnot an example\n```\n")
    blocks = blocks_of("doc.md", doc)
    assert len(blocks) == 2, blocks
    assert not blocks[0].skipped and blocks[1].skipped
    steps = blocks[0].steps()
    assert steps == [("echo a \\\n  b", "a b\n"), ("printf 'x\\ny\\n'", "x\n")], steps
    work = tempfile.mkdtemp(prefix="hwaccel-examples-self.")
    try:
        for command, expected in steps[:1]:
            assert run(command, work, work) == (0, expected), command
        code, out = run(steps[1][0], work, work)
        assert out == "x\ny\n" != steps[1][1], "a wrong block is seen as wrong"
    finally:
        subprocess.run(["rm", "-rf", work])
    new = rewritten(doc, [(blocks[0], ["$ true"])])
    assert new.startswith("intro\n```\n$ true\n```\n*Not generated"), new
    print("examples.py self-test: ok")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
