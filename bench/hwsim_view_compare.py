#!/usr/bin/env python3
"""What the command itself sees inside `hwsim run`, for two hwsim builds, over
every fixture host: /dev (ls -la, stat of every entry: type, numbers, mode,
owner, size, links, link target), /dev/shm, /, PID 1's cmdline and comm, the
hostname, the SHA-256 of /proc/cpuinfo, /proc/meminfo, /proc/1/cgroup and of
`ls -laR /sys`, and /proc/self/mountinfo (each line as mount point, root, file
system, source and options; ids and the anonymous file systems' 0:N set aside).
Run warm (a tree cache of each build's own, filled by a first run) and with
HWSIM_TREE_CACHE=off. Times, the runs' random folder names, the binaries' paths,
the tree key, inode numbers and pipe numbers are masked. Prints each difference,
the mountinfo ones apart (fewer mounts is what issue 37's warm-run work expects);
exits 1 when anything but mountinfo differs.
Keep each binary beside build/'s simulated libraries (copy it into build/).

    python3 bench/hwsim_view_compare.py BEFORE AFTER [HOST.yaml...]
"""
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile

SCRIPT = r"""
echo '## dev'; ls -la --time-style=+ /dev /dev/shm / | sed 's/^\([^ ]*\) *[0-9]* /\1 /'
echo '## stat'; for n in /dev/* /dev/*/*; do
  case $n in /dev/shm/*|/dev/pts/*|/dev/fd/*) continue;; esac
  stat -c '%n %F %t:%T %a %U:%G %s %h %N' "$n"; done
echo '## pid1'; tr '\0' ' ' </proc/1/cmdline; echo; cat /proc/1/comm; hostname
sha256sum /proc/cpuinfo /proc/meminfo /proc/1/cgroup; ls -laR --time-style=+ /sys | sha256sum
echo '## mountinfo'; cat /proc/self/mountinfo
"""


def masked(text, names):
    for real, placeholder in names:
        text = re.sub(re.escape(real) + r"(?![\w-]|\.\w)", placeholder, text)
    text = re.sub(r"[0-9a-f]{64}", "KEY", text)  # the tree key
    text = re.sub(r"view-[A-Za-z0-9_]+/[01]\b", "CACHE", text)  # as a mount's root
    text = re.sub(r"hwsim-(run|emu)-[A-Za-z0-9]+", r"hwsim-\1-XXXX", text)
    text = re.sub(r"pipe:\[\d+\]|socket:\[\d+\]", "pipe", text)
    return text


def mount_line(line):
    # id parent major:minor root point options [optional...] - fstype source super
    words = line.split(" ")
    dash = words.index("-")
    dev = words[2] if not words[2].startswith("0:") else "0:N"
    return " ".join([words[4], words[3], words[dash + 1], words[dash + 2], dev, words[5],
                     words[dash + 3]])


def one(binary, host, cache):
    names = [(os.path.realpath(binary), "BIN"), (binary, "BIN"), (cache, "CACHE")]
    env = dict(os.environ, HWSIM_TREE_CACHE=cache)
    done = subprocess.run([binary, "run", host, "--", "sh", "-c", SCRIPT], env=env,
                          capture_output=True, text=True, check=False)
    out = masked(done.stdout, names)
    head, _, mounts = out.partition("## mountinfo\n")
    view = [f"exit {done.returncode}"] + head.splitlines()
    return view, sorted(mount_line(l) for l in mounts.splitlines() if " - " in l)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    hosts = sys.argv[3:] or sorted(glob.glob("fixtures/hosts/*.yaml"))
    differ = mounts_differ = 0
    with tempfile.TemporaryDirectory(prefix="view-", dir="/dev/shm") as work:
        for host in hosts:
            for mode in ("warm", "off"):
                got = []
                for i, binary in enumerate((before, after)):
                    cache = os.path.join(work, str(i)) if mode == "warm" else "off"
                    if mode == "warm":
                        one(binary, host, cache)  # fills the cache
                    got.append(one(binary, host, cache))
                (va, ma), (vb, mb) = got
                tag = f"{host} {mode}"
                if va != vb:
                    differ += 1
                    print(f"== {tag}: the view differs")
                    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                        va, vb, "before", "after", lineterm="", n=0))
                if ma != mb:
                    mounts_differ += 1
                    print(f"-- {tag}: mountinfo {len(ma)} -> {len(mb)} lines")
                    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                        ma, mb, "before", "after", lineterm="", n=0) if l[:1] in "+-")
                if va == vb and ma == mb:
                    print(f"{tag}: the same ({len(va)} lines, {len(ma)} mounts)")
    print(f"{len(hosts)} hosts x (warm, off): view differs {differ}, mountinfo differs "
          f"{mounts_differ}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
