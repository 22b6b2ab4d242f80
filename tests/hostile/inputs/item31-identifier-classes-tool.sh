#!/bin/sh
# Issue 31: a tool whose output holds an identifier of each class that survived
# redaction: MACs in other notations, the hostname in another case, cloud-internal
# names, addresses in names, a pod name, the user's name as a word.
cat <<'TXT'
eth0      Link encap:Ethernet  HWaddr 001122334457
link/ether aabbccddeeff brd ff:ff:ff:ff:ff:ff
Cisco port 3cfd.fea1.b2c7 H3C port 3CFD-FEA1-B2C8
Connected to PLANTNODE31 (Plantnode31)
peer ip-10-77-1-23.ec2.internal and ip-10-77-1-24.us-west-2.compute.internal
gce plantvm31.us-central1-a.c.plantproject31.internal
azure plantaz31.plantazid31.bx.internal.cloudapp.net
node ip-10-77-1-25 pod 10-77-1-26.default.pod.cluster.local
pod plantweb-7d4b9c8f6d-x2k9p on the node
owner plantuser31 started by plantuser31
TXT
