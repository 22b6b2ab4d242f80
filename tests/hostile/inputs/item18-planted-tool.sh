#!/bin/sh
# Item 18: a tool whose output holds one of every identifier kind the issue names.
# Called as nvidia-smi, vulkaninfo, hl-smi ...: the same text for every argv.
cat <<'TXT'
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d)
    Board serial: PLANTBOARDSERIAL77
    serial: PLANTLOWERSERIAL78
    S/N: PLANTSLASHSN79
    MAC 3C-FD-FE-A1-B2-C3
    mac=3cfdfea1b2c4
    deviceUUID = 0123456789abcdef0123456789abcde1
    node GUID 0x0002c90300a1b2c5
    peer 10.77.66.55 reachable
TXT
