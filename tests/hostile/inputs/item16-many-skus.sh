#!/bin/sh
# Item 16: writes to $1 a DEVICES.toml with $2 SKUs (the duplicate check compared
# every pair: 300k SKUs took 6 minutes). The last SKU is h100-test-sku.
n=${2:-60000}
awk -v n="$n" 'BEGIN {
  print "format = \"hwaccel-devices/1\""
  print "[perf_class.nvidia-datacenter]"
  print "decode_efficiency = 0.50"
  print "prefill_efficiency = 0.30"
  print "source = \"hostile corpus\""
  for (i = 1; i <= n; i++) {
    id = (i == n) ? "h100-test-sku" : "sku-" i
    print "[[sku]]"
    print "id = \"" id "\""
    print "name = \"Hostile GPU " i "\""
    print "vendor = \"NVIDIA\"\nfamily = \"Hopper\"\ntype = \"gpu\""
    print "match = [\"Hostile GPU " i "\"]\npci = []"
    print "memory_gb = 80\nmemory_type = \"HBM3\"\nusable_fraction = 0.9\nbandwidth_gbs = 3350"
    print "peak_tflops = { fp32 = 60, bf16 = 900 }\nnative = [\"fp32\", \"bf16\"]"
    print "target = \"sm_90\"\ncompute_units = 132\nperf_class = \"nvidia-datacenter\"\nfabric = \"none\""
    print "sources = { memory_gb = \"x\", bandwidth_gbs = \"x\", peak_tflops = \"x\", compute_units = \"x\", usable_fraction = \"x\" }"
  }
}' >"$1"
