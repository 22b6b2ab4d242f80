#!/bin/sh
# Example TaskProlog (slurm.conf: TaskProlog=/usr/local/sbin/hwaccel-prolog): a
# job that asked for no GRES but runs on a shared workstation gets the best
# ready NVIDIA GPU hwaccel selects. Slurm reads "export NAME=VALUE" lines a
# TaskProlog prints. Jobs with --gres=gpu already get CUDA_VISIBLE_DEVICES from
# Slurm; this leaves those alone.
set -u
[ -n "${CUDA_VISIBLE_DEVICES:-}" ] && exit 0
device=$("${HWACCEL:-hwaccel}" select -q --only cuda --require gpu 2>/dev/null) || exit 0
case "$device" in
  cuda:[0-9]*) echo "export CUDA_VISIBLE_DEVICES=${device#cuda:}" ;;
esac
exit 0
