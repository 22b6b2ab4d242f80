#!/bin/sh
# Example TaskProlog (slurm.conf: TaskProlog=/usr/local/sbin/hwaccel-prolog): a
# job that asked for no GRES but runs on a shared workstation gets the best
# ready NVIDIA GPU hwaccel selects. Slurm reads "export NAME=VALUE" lines a
# TaskProlog prints. Jobs with --gres=gpu already get CUDA_VISIBLE_DEVICES from
# Slurm; this leaves those alone.
#
# `hwaccel select` prints "cuda:1 ordinal=none uuid=MIG-..." (docs/cli.md): the
# backend's index, the ordinal CUDA opens the device by in this environment,
# and its UUID. CUDA reaches a MIG device only by its UUID, so a MIG device is
# named by UUID; a whole GPU by its CUDA ordinal (what CUDA_VISIBLE_DEVICES
# indices mean: CUDA_DEVICE_ORDER's order, not nvidia-smi's), else its UUID.
set -u
[ -n "${CUDA_VISIBLE_DEVICES:-}" ] && exit 0
line=$("${HWACCEL:-hwaccel}" select -q --only cuda --require gpu 2>/dev/null) || exit 0
case "$line" in cuda:[0-9]*) ;; *) exit 0 ;; esac
ordinal='' uuid=''
for word in $line; do
  case "$word" in
    ordinal=[0-9]*) ordinal=${word#ordinal=} ;;
    uuid=GPU-* | uuid=MIG-*) uuid=${word#uuid=} ;;
  esac
done
case "$uuid" in
  MIG-*) echo "export CUDA_VISIBLE_DEVICES=$uuid" ;;
  *)
    if [ -n "$ordinal" ]; then
      echo "export CUDA_VISIBLE_DEVICES=$ordinal"
    elif [ -n "$uuid" ]; then
      echo "export CUDA_VISIBLE_DEVICES=$uuid"
    fi
    ;;
esac
exit 0
