#!/usr/bin/env python3
"""What a command sees, for two hwsim builds: every fixture host materialized
(`hwsim materialize HOST DIR`) and run cold (`hwsim run -v HOST -- true`, a fresh
tree cache in /dev/shm) by each, under umask 022 and 077; the trees' listings
(path, type, mode, size, SHA-256 of the bytes, link target) and the messages
(exit code, stdout, stderr) must be the same. The folders' and the binaries'
own names are replaced by placeholders, and so is the tree cache's key (it holds
the build id), and the seal's inode numbers and times. Prints each difference; exits 1 when there is one
(docs/performance.md, "A cold run: planning without copies", issue 37).
Keep each binary beside build/'s simulated libraries (copy it into build/).

    python3 bench/hwsim_tree_compare.py BEFORE AFTER [HOST.yaml...]
"""
import difflib
import glob
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile


def listing(root):
    lines = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, root)
            mode = f"{stat.S_IMODE(st.st_mode):04o}"
            if stat.S_ISLNK(st.st_mode):
                lines.append(f"link {rel} {mode} -> {os.readlink(path)}")
            elif stat.S_ISDIR(st.st_mode):
                lines.append(f"dir  {rel} {mode} nlink {st.st_nlink}")
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                lines.append(f"file {rel} {mode} {st.st_size} {digest} nlink {st.st_nlink}")
            else:
                lines.append(f"other {rel} {mode}")
    return lines


def masked(text, names):
    # Whole names only: "build/hwsim" is also the start of "build/hwsim_vulkan_icd.json".
    for real, placeholder in names:
        text = re.sub(re.escape(real) + r"(?![\w-]|\.\w)", placeholder, text)
    text = re.sub(r"[0-9a-f]{64}", "KEY", text)
    return re.sub(r"hwsim-(run|emu)-[A-Za-z0-9]+", r"hwsim-\1-XXXX", text)


def one(binary, host, umask):
    names = [(os.path.realpath(binary), "BIN"), (binary, "BIN")]
    out = []
    old = os.umask(umask)
    try:
        work = tempfile.mkdtemp(prefix="cmp-", dir="/dev/shm")
        names.insert(0, (work, "WORK"))
        try:
            tree = os.path.join(work, "tree")
            done = subprocess.run([binary, "materialize", host, tree], capture_output=True,
                                  text=True, check=False)
            out.append(f"materialize: exit {done.returncode}")
            out += masked(done.stdout + done.stderr, names).splitlines()
            if os.path.isdir(tree):
                out += [masked(line, names) for line in listing(tree)]
            cache = os.path.join(work, "cache")
            os.mkdir(cache)
            env = dict(os.environ, HWSIM_TREE_CACHE=cache)
            done = subprocess.run([binary, "run", "-v", host, "--", "true"], env=env,
                                  capture_output=True, text=True, check=False)
            out.append(f"run: exit {done.returncode}")
            out += masked(done.stdout + done.stderr, names).splitlines()
            head = out
            trees = os.path.join(cache, "hwsim", "trees")
            # Each entry's block, the blocks in the order of their text: the keys
            # (that hold the build id) order the folder differently for each build.
            blocks = []
            for name in sorted(os.listdir(trees)) if os.path.isdir(trees) else []:
                path = os.path.join(trees, name)
                blocks.append([])
                out = blocks[-1]
                out.append(f"cached: {masked(name, names)}")
                if os.path.isdir(path) and not os.path.islink(path):
                    out += [masked(line, names) for line in listing(path)]
                elif os.path.isfile(path):
                    # The seal: its inode numbers and times are this run's own.
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for line in masked(f.read(), names).splitlines():
                            words = line.split(" ")
                            if words[0] == "tree":
                                line = "tree"
                            elif words[0] == "top" and len(words) > 1:
                                line = "top " + words[1]
                            out.append(line)
            out = head + [line for block in sorted(blocks) for line in block]
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        os.umask(old)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    hosts = sys.argv[3:] or sorted(glob.glob("fixtures/hosts/*.yaml"))
    differ = 0
    for host in hosts:
        for umask in (0o022, 0o077):
            a, b = one(before, host, umask), one(after, host, umask)
            if a != b:
                differ += 1
                print(f"== {host} umask {umask:03o}: different")
                sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                    a, b, "before", "after", lineterm="", n=1))
            else:
                print(f"{host} umask {umask:03o}: the same ({len(a)} lines)")
    print(f"{len(hosts)} hosts, 2 umasks: {differ} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
