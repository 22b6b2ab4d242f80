#!/bin/sh
# The exports of every fixture host and synthesised preset read by the real tools, on loopback only,
# each tool started once where it can take them all:
#   promtool check metrics       every .prom, clean (no lint)
#   prometheus-node-exporter     on 127.0.0.1, its textfile collector reads each
#                                .prom in turn: node_textfile_scrape_error 0, our series there
#   kubectl label --local        accepts every NFD label (nvidia.com/ too); kustomize
#                                renders deploy/kubernetes and kubectl decodes it
#   systemd-analyze verify       the deploy/systemd units
#   slurmd -G                    every gres.conf, in a private mount namespace with
#                                the device nodes it names, on a synthetic hwloc
#                                topology with the fixture's CPU count; then one
#                                slurmctld and a slurmd per fixture node on 127.0.0.1:
#                                each registers IDLE with the exported Gres=
#   deploy/slurm health check    under `hwsim run`: exit 1 with the reason on the
#                                missing-driver and the busy hosts, 0 on a good one
#   export --interval            writes its file, logs its state once, exits 0 on SIGTERM
# Usage: fleet_tools_test.sh HWACCEL HWSIM SOURCE_DIR. Exit 77 (skipped) when a
# tool is missing, unless CI=true.
set -u
hwaccel=$1 hwsim=$2 src=$3
fail=0
say() { echo "fleet_tools: $*"; }
bad() { say "FAIL: $*"; fail=1; }
need() {
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 && continue
    [ "${CI:-}" = true ] && { say "$t missing (ci/setup fleet installs it)"; exit 1; }
    say "$t missing: skipped"; exit 77
  done
}
need promtool prometheus-node-exporter kubectl systemd-analyze slurmd unshare python3
tmp=$(mktemp -d)
exporter=""
cleanup() { [ -n "$exporter" ] && kill "$exporter" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

# The hosts: every fixture, and every preset `hwsim synth` makes (syn-NAME).
mkdir "$tmp/hosts"
cp "$src"/fixtures/hosts/*.yaml "$tmp/hosts/"
for p in $("$hwsim" synth --list-presets | awk '{ print $1 }'); do
  "$hwsim" synth --preset "$p" -o "$tmp/hosts/syn-$p.yaml" > /dev/null || bad "hwsim synth --preset $p"
done

# The exports, once per host.
names=""
for f in "$tmp"/hosts/*.yaml; do
  n=$(basename "$f" .yaml)
  "$hwaccel" export prometheus -q --host "$f" > "$tmp/$n.prom" || bad "$n: export prometheus"
  "$hwaccel" export nfd -q --nvidia-labels --host "$f" > "$tmp/$n.nfd" || bad "$n: export nfd"
  "$hwaccel" export slurm -q --part gres --host "$f" > "$tmp/$n.gres" || bad "$n: export slurm"
  "$hwaccel" export slurm -q --part node --host "$f" > "$tmp/$n.node" || bad "$n: export slurm"
  names="$names $n"
done
count=$(echo $names | wc -w)
say "$count hosts (fixtures and synthesised presets)"

# promtool: 0 for every file, and silent but for the one lint DCGM's own
# output has too: its camelCase modelName, on our info series only.
dcgm_lint="hwaccel_device_info label names should be written in 'snake_case' not 'camelCase'"
for n in $names; do
  # (promtool exits 1 on a lint too: what it printed is what counts.)
  out=$(promtool check metrics < "$tmp/$n.prom" 2>&1)
  rc=$?
  rest=$(echo "$out" | grep -vxF "$dcgm_lint")
  [ -z "$rest" ] || bad "$n: promtool (exit $rc) says: $rest"
done

# node_exporter on a free loopback port, the textfile collector only.
mkdir "$tmp/textfile"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prometheus-node-exporter --web.listen-address=127.0.0.1:$port --collector.disable-defaults \
  --collector.textfile --collector.textfile.directory="$tmp/textfile" > "$tmp/exporter.log" 2>&1 &
exporter=$!
python3 - "$port" "$tmp" $names <<'PY' || fail=1
import shutil, sys, time, urllib.request
port, tmp, names = sys.argv[1], sys.argv[2], sys.argv[3:]
def scrape():
    return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
for _ in range(100):  # up to 5 s for the exporter to listen
    try:
        scrape(); break
    except OSError:
        time.sleep(0.05)
ok = True
for n in names:
    shutil.copy(f"{tmp}/{n}.prom", f"{tmp}/textfile/.tmp"); 
    import os; os.replace(f"{tmp}/textfile/.tmp", f"{tmp}/textfile/hwaccel.prom")
    text = scrape()
    if "node_textfile_scrape_error 0" not in text:
        print(f"fleet_tools: FAIL: {n}: node_exporter textfile scrape error"); ok = False
    # node_exporter sorts labels: compare the number of samples per metric name.
    def counts(lines):
        c = {}
        for l in lines:
            if l.startswith("hwaccel_"):
                name = l.split("{")[0].split(" ")[0]
                c[name] = c.get(name, 0) + 1
        return c
    want, got = counts(open(f"{tmp}/{n}.prom")), counts(text.splitlines())
    if want != got:
        print(f"fleet_tools: FAIL: {n}: node_exporter serves {got}, the file has {want}"); ok = False
sys.exit(0 if ok else 1)
PY
kill "$exporter"; wait "$exporter" 2>/dev/null; exporter=""

# kubectl, offline: one `label --local` call validates every label of every
# fixture (it checks each KEY=VALUE argument; a repeated key just overwrites).
printf 'apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n' > "$tmp/node.yaml"
for n in $names; do grep -v '^#' "$tmp/$n.nfd"; done | sort -u > "$tmp/labels"
# shellcheck disable=SC2046
out=$(kubectl label --local --dry-run=client -o name -f "$tmp/node.yaml" $(cat "$tmp/labels") 2>&1) ||
  bad "kubectl label: $out"
say "kubectl accepted $(wc -l < "$tmp/labels") distinct labels"
kubectl kustomize "$src/deploy/kubernetes" > "$tmp/k8s.yaml" 2>&1 || bad "kubectl kustomize: $(cat "$tmp/k8s.yaml")"
out=$(kubectl label --local --dry-run=client -o name -f "$tmp/k8s.yaml" x=y 2>&1) || bad "kubectl decoding the DaemonSet: $out"
grep -q "kind: ClusterRole\|kind: Role" "$tmp/k8s.yaml" && bad "the manifests need no RBAC"

# systemd units, with ExecStart pointing at this build.
mkdir "$tmp/units"
for u in "$src"/deploy/systemd/*; do
  sed "s|/usr/local/bin/hwaccel|$hwaccel|" "$u" > "$tmp/units/$(basename "$u")"
done
out=$(systemd-analyze verify "$tmp"/units/* 2>&1) || bad "systemd-analyze verify: $out"
[ -z "$out" ] || bad "systemd-analyze verify says: $out"

# slurmd -G, all fixtures in one private mount namespace.
cat > "$tmp/slurmd.sh" <<'SH'
set -u
tmp=$1; shift
mount -t tmpfs none /dev || exit 1
fail=0
for n in "$@"; do
  sed -n 's/^Name=.* File=\([^ ]*\).*/\1/p' "$tmp/$n.gres" | while read -r f; do
    case $f in *\[*) pre=${f%%\[*}; range=${f#*\[}; range=${range%]}
      for part in $(echo "$range" | tr , ' '); do
        lo=${part%-*}; hi=${part#*-}; i=$lo; while [ "$i" -le "$hi" ]; do echo "$pre$i"; i=$((i + 1)); done
      done ;;
    *) echo "$f" ;; esac
  done > "$tmp/$n.files"
  minor=0
  while read -r f; do mkdir -p "$(dirname "$f")"; [ -e "$f" ] || mknod "$f" c 1 $minor; minor=$((minor + 1)); done < "$tmp/$n.files"
  cpus=$(sed -n 's/^ *cpus: *\([0-9]*\).*/\1/p' "$tmp/$n.facts"); cpus=${cpus:-1}
  node=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' "$tmp/$n.node")
  [ -n "$node" ] || continue
  gres=$(sed -n 's/^NodeName=[^ ]* Gres=\(.*\)/\1/p' "$tmp/$n.node")
  types=$(sed -n 's/^GresTypes=//p' "$tmp/$n.node")
  mkdir -p "$tmp/spool"
  { echo "ClusterName=t"; echo "SlurmctldHost=localhost"; echo "SlurmdSpoolDir=$tmp/spool"
    echo "GresTypes=$types"
    echo "NodeName=$node Gres=$gres CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1000"
    echo "PartitionName=p Nodes=ALL Default=YES"; } > "$tmp/slurm.conf"
  cp "$tmp/$n.gres" "$tmp/gres.conf"
  out=$(HWLOC_SYNTHETIC="pack:1 core:$cpus pu:1" timeout 20 slurmd -G -f "$tmp/slurm.conf" -N "$node" -D 2>&1)
  lines=$(echo "$out" | sed -n 's/.* Gres Name=.* Count=\([0-9]*\) .*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
  want=$(wc -l < "$tmp/$n.files")
  if echo "$out" | grep -q "error\|fatal" || [ "$lines" -ne "$want" ]; then
    echo "fleet_tools: FAIL: $n: slurmd -G ($lines of $want devices):"; echo "$out" | grep -v "debug" | head -5; fail=1
  fi
  rm -rf /dev/* 2>/dev/null
done

# One slurmctld and one slurmd per fixture node on 127.0.0.1 (auth/none, nothing
# leaves loopback): every node registers IDLE with the Gres= we export. A MIG
# host is left out: its instances' files come from AutoDetect=nvml.
mknod /dev/null c 1 3; chmod 666 /dev/null
base=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
conf="$tmp/pair/slurm.conf"
mkdir -p "$tmp/pair/state"; : > "$tmp/pair/slurm.conf.nodes"
: > "$tmp/pair/gres.conf"; : > "$tmp/pair/nodes"; types=""
port=$((base + 1))
for n in "$@"; do
  grep -q "^NodeName=" "$tmp/$n.node" || continue
  grep -q "MIG instances" "$tmp/$n.gres" && continue
  minor=0
  while read -r f; do mkdir -p "$(dirname "$f")"; [ -e "$f" ] || mknod "$f" c 1 $((minor + 200)); minor=$((minor + 1)); done < "$tmp/$n.files"
  cpus=$(sed -n 's/^ *cpus: *\([0-9]*\).*/\1/p' "$tmp/$n.facts"); cpus=${cpus:-1}
  gres=$(sed -n 's/^NodeName=[^ ]* Gres=\(.*\)/\1/p' "$tmp/$n.node")
  types="$types,$(sed -n 's/^GresTypes=//p' "$tmp/$n.node")"
  grep "^Name=" "$tmp/$n.gres" | sed "s/^/NodeName=$n /" >> "$tmp/pair/gres.conf"
  echo "NodeName=$n NodeAddr=127.0.0.1 Port=$port Gres=$gres CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1" >> "$tmp/pair/slurm.conf.nodes"
  echo "$n $cpus $gres" >> "$tmp/pair/nodes"
  port=$((port + 1))
done
types=$(echo "$types" | tr , '\n' | sort -u | grep . | paste -sd, -)
{ echo "ClusterName=t"; echo "SlurmctldHost=localhost(127.0.0.1)"; echo "SlurmctldPort=$base"
  echo "AuthType=auth/none"; echo "CredType=cred/none"; echo "SlurmUser=root"; echo "SlurmdUser=root"
  echo "StateSaveLocation=$tmp/pair/state"; echo "SlurmdSpoolDir=$tmp/pair/spool-%n"
  echo "SlurmctldPidFile=$tmp/pair/ctld.pid"; echo "SlurmdPidFile=$tmp/pair/d-%n.pid"
  echo "SlurmctldLogFile=$tmp/pair/ctld.log"; echo "SlurmdLogFile=$tmp/pair/d-%n.log"
  echo "ProctrackType=proctrack/linuxproc"; echo "TaskPlugin=task/none"; echo "SwitchType=switch/none"
  echo "SelectType=select/cons_tres"; echo "MpiDefault=none"; echo "ReturnToService=2"
  echo "GresTypes=$types"; cat "$tmp/pair/slurm.conf.nodes"; echo "PartitionName=p Nodes=ALL Default=YES State=UP"
} > "$conf"
export SLURM_CONF="$conf"
slurmctld -D -i > "$tmp/pair/ctld.out" 2>&1 &
pids=$!
while read -r n cpus gres; do
  mkdir -p "$tmp/pair/spool-$n"
  HWLOC_SYNTHETIC="pack:1 core:$cpus pu:1" slurmd -D -N "$n" > "$tmp/pair/d-$n.out" 2>&1 &
  pids="$pids $!"
done < "$tmp/pair/nodes"
want=$(wc -l < "$tmp/pair/nodes")
i=0
while [ $i -lt 120 ]; do
  idle=$(sinfo -h -N -o "%N %T" 2>/dev/null | grep -c " idle$")
  [ "$idle" -eq "$want" ] && break
  sleep 0.25; i=$((i + 1))
done
while read -r n cpus gres; do
  info=$(scontrol show node "$n" 2>&1)
  state=$(echo "$info" | sed -n 's/.*State=\([A-Z+_]*\).*/\1/p' | head -1)
  got=$(echo "$info" | sed -n 's/^ *Gres=//p' | sed 's/(S:[^)]*)//g')
  if [ "$state" != IDLE ] || [ "$got" != "$gres" ]; then
    echo "fleet_tools: FAIL: $n registers $state with Gres=$got (want IDLE, $gres):"
    echo "$info" | grep -i reason; grep -i "error" "$tmp/pair/d-$n.log" "$tmp/pair/ctld.log" 2>/dev/null | grep -i "$n" | head -3
    fail=1
  fi
done < "$tmp/pair/nodes"
echo "fleet_tools: slurmctld + $want slurmd on 127.0.0.1: $idle IDLE"
kill $pids 2>/dev/null; wait
exit $fail
SH
for n in $names; do sed -n '/^facts:/,/^[a-z]/p' "$tmp/hosts/$n.yaml" > "$tmp/$n.facts"; done
unshare -m sh "$tmp/slurmd.sh" "$tmp" $names || fail=1

# The health check on the recorded hosts (hwsim run gives hwaccel their /sys, /proc and tools).
check="$src/deploy/slurm/hwaccel-healthcheck.sh"
printf 'Name=gpu Type=h100 File=/dev/nvidia[0-7]\n' > "$tmp/h100.gres"
printf 'Name=gpu Type=rtx_4090 File=/dev/nvidia0\n' > "$tmp/4090.gres"
run_check() {  # FIXTURE GRES MIN_FREE -> its output, then "exit=N"
  # hwsim run gives the command the recorded host's environment: ours goes through env(1).
  "$hwsim" run "$src/fixtures/hosts/$1.yaml" -- env HWACCEL="$hwaccel" HWACCEL_GRES_CONF="$2" \
    HWACCEL_MIN_FREE_BYTES="$3" HWACCEL_HEALTH_DRY_RUN=1 sh -c 'sh "$0"; echo "exit=$?"' "$check" 2>&1 |
    grep -v '^hwsim run: '
}
out=$(run_check nvidia-no-driver "$tmp/h100.gres" 0)
echo "$out" | grep -q "^exit=1$" && echo "$out" | grep -q "driver-not-found" ||
  bad "health check, missing driver: $out"
out=$(run_check ws-4090-busy "$tmp/4090.gres" 4294967296)
echo "$out" | grep -q "^exit=1$" && echo "$out" | grep -q "cuda:0 busy" || bad "health check, busy GPU: $out"
out=$(run_check dgx-h100 "$tmp/h100.gres" 0)
echo "$out" | grep -q "^exit=0$" || bad "health check, a good DGX: $out"

# Agent mode: the first round's file appears whole, SIGTERM in the wait ends it with 0.
"$hwaccel" export prometheus --host "$src/fixtures/hosts/dgx-h100.yaml" --interval 1h \
  -o "$tmp/agent.prom" 2> "$tmp/agent.log" &
agent=$!
i=0
while [ ! -s "$tmp/agent.prom" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $agent
wait $agent
rc=$?
[ $rc -eq 0 ] || bad "agent mode: exit $rc on SIGTERM"
grep -q "^hwaccel_accelerators{state=\"ready\"} 8$" "$tmp/agent.prom" || bad "agent mode: no whole file"
[ "$(grep -c "8 of 8 accelerators ready" "$tmp/agent.log")" -eq 1 ] &&
  grep -q "stopping on SIGTERM" "$tmp/agent.log" || bad "agent mode log: $(cat "$tmp/agent.log")"
ls -A "$tmp" | grep -q '^\.agent' && bad "agent mode left a temporary file"
# The NFD file of a recorded host expires three intervals after its detection.
"$hwaccel" export nfd -q --host "$src/fixtures/hosts/h200-firecracker.yaml" --interval 5m \
  -o "$tmp/agent.nfd" &
agent=$!
i=0
while [ ! -s "$tmp/agent.nfd" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $agent
wait $agent
rc=$?
[ $rc -eq 0 ] || bad "agent mode (nfd): exit $rc on SIGTERM"
grep -qx "# +expiry-time=2026-11-30T02:03:06Z" "$tmp/agent.nfd" || bad "agent mode: expiry-time: $(head -2 "$tmp/agent.nfd")"

[ $fail -eq 0 ] && say "all $count hosts accepted by promtool, node_exporter, kubectl, slurmd -G and slurmctld"
exit $fail
