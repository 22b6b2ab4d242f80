// NVLink fabric without `nvidia-smi topo -m`: where topo -m failed or was not
// recorded, NVIDIA's NVSwitch bridge functions on the PCI bus (class 0x0680,
// e.g. 10de:1af1 on HGX A100, 10de:22a3 on HGX H100) say every GPU reaches
// every other over NVLink; `nvidia-smi nvlink -s` (asked only then) gives each
// GPU's active link count.
#pragma once

#include "src/host/host.h"
#include "src/probe/probe.h"

namespace hwaccel {

std::vector<std::string> cuda_nvlink_argv();  // nvidia-smi nvlink -s

// Adds one nvlink Link per pair of whole, listed GPUs when NVSwitch bridges
// are on the bus and `result` has no links yet. Returns the bridges found.
std::size_t add_fabric_from_bus(Host& host, ProbeResult& result);

}  // namespace hwaccel
