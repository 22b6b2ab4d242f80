#!/bin/sh
# Item 12: redaction speed. 12 MB of nvidia-smi -q-like text (redaction ran at
# 1.3 MB/s: about 10 s for this).
line='    Serial Number                         : 1654922006536
    GPU UUID                              : GPU-3cd1b2c7-9a7b-4a4f-8f9b-3e1c2d4a5b6c
    Product Name                          : NVIDIA H100 80GB HBM3
    Bus Id                                : 00000000:18:00.0
    Minor Number                          : 0
    VBIOS Version                         : 96.00.74.00.0F
'
i=0
# 2^11 copies of the 375-byte block, doubled up, printed @REPEAT@ times: 16 is
# 12.3 MB (the setup line divides it under the sanitizers).
block="$line"
while [ $i -lt 11 ]; do block="$block$block"; i=$((i+1)); done
i=0
while [ $i -lt @REPEAT@ ]; do printf '%s' "$block"; i=$((i+1)); done
