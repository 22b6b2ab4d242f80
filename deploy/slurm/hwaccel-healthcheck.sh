#!/bin/sh
# Slurm HealthCheckProgram (slurm.conf: HealthCheckProgram=/usr/local/sbin/hwaccel-healthcheck,
# HealthCheckInterval=300): drains this node when its accelerators turned
# unavailable (driver gone, a GPU fallen off the bus), when fewer are ready
# than gres.conf declares, or (HWACCEL_MIN_FREE_BYTES) when one has less free
# memory than that (a leftover job holding it). Exit 0 healthy; 1 unhealthy,
# the reason on stdout and in the drain reason.
#   HWACCEL             the hwaccel binary (default: hwaccel on PATH)
#   HWACCEL_GRES_CONF   the gres.conf to count (default /etc/slurm/gres.conf)
#   HWACCEL_MIN_FREE_BYTES  drain below this much free device memory (default: off)
#   HWACCEL_HEALTH_DRY_RUN=1  say it, do not call scontrol
set -u
hwaccel=${HWACCEL:-hwaccel}
gres_conf=${HWACCEL_GRES_CONF:-/etc/slurm/gres.conf}
min_free=${HWACCEL_MIN_FREE_BYTES:-0}

metrics=$("$hwaccel" export prometheus -q --timeout 20) || {
  reason="hwaccel export failed (exit $?)"
  metrics=""
}
# Expected devices: the File= nodes gres.conf declares (a range counts each).
expected=0
if [ -r "$gres_conf" ]; then
  expected=$(awk '
    /^[ \t]*#/ { next }
    match($0, /File=[^ \t]+/) {
      f = substr($0, RSTART + 5, RLENGTH - 5)
      if (match(f, /\[[^]]*\]/)) {
        n = 0; split(substr(f, RSTART + 1, RLENGTH - 2), parts, ",")
        for (i in parts) { if (split(parts[i], ab, "-") == 2) n += ab[2] - ab[1] + 1; else n += 1 }
        total += n
      } else total += 1
    }
    END { print total + 0 }' "$gres_conf")
fi
: "${reason:=}"
if [ -z "$reason" ]; then
  reason=$(printf '%s\n' "$metrics" | awk -v expected="$expected" -v min_free="$min_free" '
    function label(s, name,   m) {
      if (match(s, name "=\"[^\"]*\"")) return substr(s, RSTART + length(name) + 2, RLENGTH - length(name) - 3)
      return ""
    }
    /^hwaccel_device_unavailable_info\{/ { bad = bad sep label($0, "hwaccel_device") " " label($0, "reason"); sep = ", " }
    /^hwaccel_accelerators\{state="ready"\}/ { ready = $2 }
    /^hwaccel_device_memory_free_bytes\{/ {
      if (min_free > 0 && $2 + 0 < min_free + 0) { bad = bad sep label($0, "hwaccel_device") " busy (" int($2 / 1048576) " MiB free)"; sep = ", " }
    }
    END {
      if (ready + 0 < expected + 0) { bad = bad sep ready + 0 " of " expected " devices ready"; sep = ", " }
      print bad
    }')
fi
[ -z "$reason" ] && exit 0
echo "hwaccel: $reason"
if [ "${HWACCEL_HEALTH_DRY_RUN:-0}" != 1 ] && command -v scontrol >/dev/null 2>&1; then
  scontrol update NodeName="$(hostname -s)" State=DRAIN Reason="hwaccel: $reason" || true
fi
exit 1
