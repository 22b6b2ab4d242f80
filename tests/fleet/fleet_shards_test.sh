#!/bin/sh
# A sharded `hwsim fleet` on the engines operators run, on loopback only; each
# must print the bytes the single run prints:
#   Slurm    one slurmctld and one slurmd on 127.0.0.1 (auth/none, as
#            fleet_tools_test.sh starts them) run deploy/slurm/hwsim-fleet-submit.sh:
#            a 3-task job array, then the merge job (afterok); its report.txt and
#            report.json are compared with the single run's.
#   kubectl  renders deploy/kubernetes/fleet (kustomize) and decodes every object
#            offline; the shard Job is Indexed with completions = SHARDS; each pod's
#            command, $(VAR) expanded as the kubelet does for JOB_COMPLETION_INDEX
#            0..N-1 (only --count made small and /parts a folder here), is run, then
#            merge-job.yaml's command.
# Usage: fleet_shards_test.sh HWSIM SOURCE_DIR. Exit 77 (skipped) when a tool is
# missing, unless CI=true.
set -u
hwsim=$1 src=$2
fail=0
say() { echo "fleet_shards: $*"; }
bad() { say "FAIL: $*"; fail=1; }
need() {
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 && continue
    [ "${CI:-}" = true ] && { say "$t missing (ci/setup fleet installs it)"; exit 1; }
    say "$t missing: skipped"; exit 77
  done
}
need slurmctld slurmd sbatch squeue sinfo kubectl python3
tmp=$(mktemp -d)
pids=""
cleanup() { [ -n "$pids" ] && kill $pids 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

# --- Slurm ---------------------------------------------------------------------
fleet="--preset ws-4090-busy --count 60 --seed 4 --fault-rate 0.3"
# shellcheck disable=SC2086
"$hwsim" fleet $fleet > "$tmp/single.txt" && "$hwsim" fleet $fleet --json > "$tmp/single.json" ||
  bad "the single run"
s="$tmp/slurm"
mkdir -p "$s/state" "$s/spool"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ echo "ClusterName=fleetshards"; echo "SlurmctldHost=localhost(127.0.0.1)"; echo "SlurmctldPort=$port"
  echo "SlurmdPort=$((port + 1))"
  echo "AuthType=auth/none"; echo "CredType=cred/none"; echo "SlurmUser=$(id -un)"; echo "SlurmdUser=$(id -un)"
  echo "StateSaveLocation=$s/state"; echo "SlurmdSpoolDir=$s/spool"
  echo "SlurmctldPidFile=$s/ctld.pid"; echo "SlurmdPidFile=$s/d.pid"
  echo "SlurmctldLogFile=$s/ctld.log"; echo "SlurmdLogFile=$s/d.log"
  echo "ProctrackType=proctrack/linuxproc"; echo "TaskPlugin=task/none"; echo "SwitchType=switch/none"
  echo "SelectType=select/cons_tres"; echo "MpiDefault=none"; echo "ReturnToService=2"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "NodeName=n1 NodeAddr=127.0.0.1 CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000"
  echo "PartitionName=p Nodes=ALL Default=YES State=UP"
} > "$s/slurm.conf"
export SLURM_CONF="$s/slurm.conf"
slurmctld -D -i > "$s/ctld.out" 2>&1 &
pids=$!
HWLOC_SYNTHETIC="pack:1 core:2 pu:1" slurmd -D -N n1 > "$s/d.out" 2>&1 &
pids="$pids $!"
i=0
while [ $i -lt 120 ] && ! sinfo -h -N -o "%T" 2>/dev/null | grep -qx idle; do sleep 0.25; i=$((i + 1)); done
sinfo -h -N -o "%T" 2>/dev/null | grep -qx idle || bad "slurmd never registered: $(tail -3 "$s/ctld.log")"
# shellcheck disable=SC2086
out=$(HWSIM="$hwsim" sh "$src/deploy/slurm/hwsim-fleet-submit.sh" 3 "$s/run" --cpus-per-task=1 -- $fleet 2>&1) ||
  bad "hwsim-fleet-submit.sh: $out"
say "slurm: $out"
i=0
while [ $i -lt 240 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 0.25; i=$((i + 1)); done
[ -z "$(squeue -h 2>/dev/null)" ] || bad "jobs still queued after 60 s: $(squeue)"
[ "$(ls "$s/run/parts")" = "part-0.json
part-1.json
part-2.json" ] || bad "the array wrote: $(ls "$s/run/parts") ($(cat "$s"/run/shard-*.log))"
cmp -s "$s/run/report.txt" "$tmp/single.txt" || bad "Slurm's report.txt differs from the single run: $(cat "$s/run/merge.log")"
cmp -s "$s/run/report.json" "$tmp/single.json" || bad "Slurm's report.json differs from the single run"
# An array not declared from 0 is refused by each task, and the merge never runs.
# shellcheck disable=SC2086
id=$(HWSIM="$hwsim" sbatch --parsable --array=1-2 --output="$s/bad-%a.log" \
  "$src/deploy/slurm/hwsim-fleet-shard.sbatch" "$s/bad" $fleet 2>&1) || bad "sbatch: $id"
i=0
while [ $i -lt 120 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 0.25; i=$((i + 1)); done
grep -q "the array must be --array=0-1" "$s/bad-1.log" || bad "an array from 1 ran: $(cat "$s"/bad-*.log)"
kill $pids 2>/dev/null; wait 2>/dev/null; pids=""

# --- Kubernetes ----------------------------------------------------------------
k="$tmp/k8s"
mkdir -p "$k/parts"
kubectl kustomize "$src/deploy/kubernetes/fleet" > "$k/all.yaml" 2>&1 || bad "kubectl kustomize: $(cat "$k/all.yaml")"
# Decoded object by object, offline (no API server): each object as kubectl read it.
kubectl label --local --dry-run=client -o json -f "$k/all.yaml" check=1 > "$k/all.json" 2>&1 ||
  bad "kubectl decoding deploy/kubernetes/fleet: $(cat "$k/all.json")"
kubectl label --local --dry-run=client -o json -f "$src/deploy/kubernetes/fleet/merge-job.yaml" check=1 \
  > "$k/merge.json" 2>&1 || bad "kubectl decoding merge-job.yaml: $(cat "$k/merge.json")"
python3 - "$hwsim" "$k" <<'PY' || fail=1
import json, re, subprocess, sys
hwsim, k = sys.argv[1], sys.argv[2]
ok = True
def bad(m):
    global ok
    print("fleet_shards: FAIL: " + m); ok = False
def items(path):
    """kubectl prints one JSON document per object, one after the other."""
    text, docs, at = open(path).read(), [], 0
    decoder = json.JSONDecoder()
    while text[at:].strip():
        doc, end = decoder.raw_decode(text[at:].lstrip())
        at += len(text[at:]) - len(text[at:].lstrip()) + end
        docs.extend(doc.get("items", []) if doc.get("kind") == "List" else [doc])
    return docs
objs = items(f"{k}/all.json")
jobs = [o for o in objs if o["kind"] == "Job"]
kinds = sorted(o["kind"] for o in objs)
if kinds != ["Job", "Namespace", "PersistentVolumeClaim"]:
    bad(f"rendered {kinds}")
if any(o["kind"] in ("Role", "ClusterRole") for o in objs):
    bad("the fleet needs no RBAC")
job = jobs[0]
spec = job["spec"]
c = spec["template"]["spec"]["containers"][0]
env = {e["name"]: e.get("value") for e in c.get("env", [])}
n = spec["completions"]
if spec.get("completionMode") != "Indexed" or str(n) != env.get("SHARDS"):
    bad(f"completionMode {spec.get('completionMode')}, completions {n}, SHARDS {env.get('SHARDS')}")
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
def run_here(argv, index=None):
    """The container's command as the kubelet runs it, on this machine."""
    values = dict(env, CPUS="2")
    if index is not None:
        values["JOB_COMPLETION_INDEX"] = str(index)
    out = []
    for a in argv:
        a = re.sub(r"\$\((\w+)\)", lambda m: values.get(m.group(1), m.group(0)), a)
        a = a.replace(mounts["parts"], f"{k}/parts")
        out.append(a)
    return out
argv = c["command"] + c["args"]
argv[argv.index("--count") + 1] = "50"  # the manifest's fleet, made small
for i in range(n):
    cmd = [hwsim] + run_here(argv, i)[1:]
    if "$(" in " ".join(cmd):
        bad(f"unexpanded: {cmd}")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        bad(f"pod {i}: {cmd}: exit {r.returncode}: {r.stderr}")
single = run_here(argv)[1:]
cut = single.index("--shard")
del single[cut:cut + 4]  # --shard K/N -o FILE
cut = single.index("--jobs")
del single[cut:cut + 2]
want = subprocess.run([hwsim] + single, capture_output=True, text=True).stdout
merge = items(f"{k}/merge.json")[0]
mc = merge["spec"]["template"]["spec"]["containers"][0]
margv = mc["command"] + mc["args"]
got = subprocess.run([hwsim] + [a.replace("/parts", f"{k}/parts") for a in margv[1:]],
                     capture_output=True, text=True)
if got.returncode != 0 or got.stdout != want or not want.startswith("fleet: 50 hosts"):
    bad(f"the merge Job's command: exit {got.returncode} {got.stderr}\n{got.stdout}\nsingle run:\n{want}")
if merge["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] != \
        spec["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"]:
    bad("the merge reads another volume than the shards write")
print(f"fleet_shards: kubernetes: {n} indexed pods' commands and the merge's: the single run's report")
sys.exit(0 if ok else 1)
PY

[ $fail -eq 0 ] && say "Slurm array + merge and the Kubernetes Indexed Job + merge print the single run's report"
exit $fail
