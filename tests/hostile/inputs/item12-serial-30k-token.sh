#!/bin/sh
# Item 12: an nvidia-smi whose every answer is "Serial Number: " and a 30 KB token
# (std::regex recursed once per character and overflowed the stack).
printf 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-12345678-1234-1234-1234-123456789abc)\n'
printf 'Serial Number: '
head -c 30000 /dev/zero | tr '\0' 'Q'
printf '\n'
